import { hasTrainings } from "@carecampus/contract";
import { Alert, Text, Title } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { UpcomingEvents } from "../../components/UpcomingEvents";
import { useRequiredSession } from "../../session/store";
import { DueNow } from "./DueNow";
import { TopicGrid } from "./TopicGrid";

/** Start page: the topic grid; users without the employee role see that they have no trainings (spec §2). */
export default function HomePage() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const employee = hasTrainings(user.roles);
  return (
    <>
      <Title order={1} fz={{ base: "h3", sm: "h2" }} mb="lg">
        {employee ? t("topics.title") : t("home.welcome", { name: user.name })}
      </Title>
      {employee ? (
        <>
          <DueNow userId={user.id} />
          <UpcomingEvents />
          <TopicGrid />
        </>
      ) : (
        <Alert icon={<IconInfoCircle />} color="blue" variant="light" data-testid="no-training-access">
          <Text>{t("home.noAccess")}</Text>
        </Alert>
      )}
    </>
  );
}

import { can, hasTrainings } from "@carecampus/contract";
import { Alert, Text, Title } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { UpcomingEvents } from "../../components/UpcomingEvents";
import { useRequiredSession } from "../../session/store";
import { DueNow } from "./DueNow";
import { StaffHome } from "./StaffHome";
import { TopicGrid } from "./TopicGrid";

/**
 * Start page: learners the topic grid (spec §2); staff what needs doing in their facilities
 * (issue 30), employees with a staff role both; whoever is no learner also that the account has
 * no trainings.
 */
export default function HomePage() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const employee = hasTrainings(user.roles);
  const staff = can(user.roles, "home.staff");
  return (
    <>
      <Title order={1} fz={{ base: "h3", sm: "h2" }} mb="lg">
        {staff || !employee ? t("home.welcome", { name: user.name }) : t("topics.title")}
      </Title>
      {staff && <StaffHome />}
      {employee ? (
        <>
          {staff && (
            <Title order={2} fz={{ base: "h4", sm: "h3" }} mb="md">
              {t("topics.title")}
            </Title>
          )}
          <DueNow userId={user.id} />
          <UpcomingEvents />
          <TopicGrid />
        </>
      ) : staff ? (
        // Spec §2's message stays, below what the staff member came for.
        <Text c="dimmed" size="sm" data-testid="no-training-access">
          {t("home.noAccess")}
        </Text>
      ) : (
        <Alert icon={<IconInfoCircle />} color="blue" variant="light" data-testid="no-training-access">
          <Text>{t("home.noAccess")}</Text>
        </Alert>
      )}
    </>
  );
}

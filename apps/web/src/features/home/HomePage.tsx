import { Alert, Text, Title } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useRequiredSession } from "../../session/store";
import { ComingPage } from "../placeholders/ComingPage";

/** Start page. Users without the employee role see that the account has no trainings (spec §2). */
export default function HomePage() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  if (!user.roles.includes("employee")) {
    return (
      <>
        <Title order={1} fz={{ base: "h3", sm: "h2" }} mb="lg">
          {t("home.welcome", { name: user.name })}
        </Title>
        <Alert icon={<IconInfoCircle />} color="blue" variant="light" data-testid="no-training-access">
          <Text>{t("home.noAccess")}</Text>
        </Alert>
      </>
    );
  }
  return <ComingPage feature="learning" />;
}

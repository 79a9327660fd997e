import { Alert, Text } from "@mantine/core";
import { IconHammer } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { PageHeader } from "../../components/PageHeader";

export type Feature = "wiki";

/**
 * A route of a feature that is not built yet. It says so plainly and shows no data: a
 * placeholder must never look like the real thing.
 */
export function ComingPage({ feature }: { feature: Feature }) {
  const { t } = useTranslation();
  return (
    <>
      <PageHeader title={t(`coming.${feature}.title`)} />
      <Alert icon={<IconHammer />} title={t("coming.notYet")} color="gray" variant="light" data-testid="coming-soon">
        <Text>{t(`coming.${feature}.text`)}</Text>
      </Alert>
    </>
  );
}

import { Alert } from "@mantine/core";
import { IconWifiOff } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { useOnline } from "./online";

/**
 * Above every screen while the device has no network (issue 30): says so in plain words, and
 * that quiz answers are kept and sent later (learning/answer-outbox.ts); gone when it is back.
 */
export function OfflineNotice() {
  const { t } = useTranslation();
  if (useOnline()) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconWifiOff />} role="status" mb="md" data-testid="offline-notice">
      {t("session.offline")}
    </Alert>
  );
}

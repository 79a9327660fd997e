import { Alert } from "@mantine/core";
import { IconWifiOff } from "@tabler/icons-react";
import { useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";

function subscribe(changed: () => void): () => void {
  window.addEventListener("online", changed);
  window.addEventListener("offline", changed);
  return () => {
    window.removeEventListener("online", changed);
    window.removeEventListener("offline", changed);
  };
}

/**
 * Above every screen while the device has no network (issue 30): says so in plain words, and
 * that quiz answers are kept and sent later (learning/answer-outbox.ts); gone when it is back.
 */
export function OfflineNotice() {
  const { t } = useTranslation();
  const online = useSyncExternalStore(
    subscribe,
    () => navigator.onLine,
    () => true,
  );
  if (online) return null;
  return (
    <Alert color="orange" variant="light" icon={<IconWifiOff />} role="status" mb="md" data-testid="offline-notice">
      {t("session.offline")}
    </Alert>
  );
}

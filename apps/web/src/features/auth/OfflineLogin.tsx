import { Alert, Button } from "@mantine/core";
import { IconCertificate, IconWifiOff } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import type { OfflineEntry } from "../../offline/copy";
import { useKeptCopy } from "../../offline/useKeptCopy";

/**
 * Under the login form when the server cannot be reached (issue 30): that logging in needs a
 * connection (when the device is offline), and the certificates kept on this device, if any.
 */
export default function OfflineLogin({ offline }: { offline: boolean }) {
  const { t } = useTranslation();
  const kept = useKeptCopy(true)?.copy.user;
  const owner = kept ? `${kept.name} ${kept.surname}` : null;
  return (
    <>
      {offline && (
        <Alert color="orange" variant="light" icon={<IconWifiOff />} role="status">
          {t("login.offline")}
        </Alert>
      )}
      {owner && (
        <Button
          component={Link}
          to="/offline/certificates"
          state={{ unreachable: true } satisfies OfflineEntry}
          variant="light"
          leftSection={<IconCertificate size={18} />}
          h="auto"
          mih={42}
          py={6}
          styles={{ label: { whiteSpace: "normal", textAlign: "center", lineHeight: 1.35 } }}
        >
          {t("login.offlineCertificates", { name: owner })}
        </Button>
      )}
    </>
  );
}

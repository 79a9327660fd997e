import { Alert, Button } from "@mantine/core";
import { IconCertificate, IconWifiOff } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { type OfflineEntry, readCopy } from "../../offline/copy";

/**
 * Under the login form when the server cannot be reached (issue 30): that logging in needs a
 * connection (when the device is offline), and the certificates kept on this device, if any.
 */
export default function OfflineLogin({ offline }: { offline: boolean }) {
  const { t } = useTranslation();
  const owner = useKeptCopyOwner();
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

/** The name of the person whose certificates this device keeps. */
function useKeptCopyOwner(): string | null {
  const [owner, setOwner] = useState<string | null>(null);
  useEffect(() => {
    let live = true;
    void readCopy().then((copy) => {
      if (live) setOwner(copy ? `${copy.user.name} ${copy.user.surname}` : null);
    });
    return () => {
      live = false;
    };
  }, []);
  return owner;
}

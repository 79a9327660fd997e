import { formatDate, TRUNCATE_CERTIFICATE, truncate } from "@carecampus/contract";
import { Group, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { settings } from "../../app/settings";
import { CertificateHistory } from "../../components/CertificateHistory";
import { certificateLineId, RevokeCertificateButton } from "../../components/RevokeCertificate";
import { useUserProgress } from "../../queries/learning";

/**
 * A person's certificates per training on their card: the one that counts (valid until, or
 * expired on) and the history below it (renewals, revoked ones marked). Staff with the right
 * (`canRevoke`) revoke one from here. Below the buttons, so that they do not move when the
 * progress arrives; the query is ProgressBars' (one request).
 */
export function UserCertificates({ userId, canRevoke }: { userId: number; canRevoke: boolean }) {
  const { t } = useTranslation();
  const { data } = useUserProgress(userId);
  const zone = settings["time-zone"];
  const held = (data?.training_progress ?? []).filter((tp) => tp.certificate || tp.earlier_certificates.length > 0);
  if (held.length === 0) return null;
  return (
    <Stack gap={6} mt="md" data-testid="user-certificates">
      <Text size="sm" fw={600}>
        {t("revoke.certificates")}
      </Text>
      {held.map((tp) => {
        const cert = tp.certificate;
        const revoke = canRevoke ? { training: tp.name, userId } : undefined;
        return (
          <div key={tp.id} data-testid="user-certificate">
            <Text size="sm" title={tp.name}>
              {truncate(tp.name, TRUNCATE_CERTIFICATE)}
            </Text>
            {cert ? (
              <Group gap="xs" wrap="wrap" id={certificateLineId(cert.id)} tabIndex={-1}>
                <Text size="xs">
                  {cert.active_working_cert
                    ? t("revoke.validUntil", { date: formatDate(cert.expires_at, zone) })
                    : t("revoke.expired", { date: formatDate(cert.expires_at, zone) })}
                </Text>
                {revoke && <RevokeCertificateButton certificate={cert} {...revoke} />}
              </Group>
            ) : (
              <Text size="xs">{t("revoke.due")}</Text>
            )}
            <CertificateHistory certificates={tp.earlier_certificates} revoke={revoke} />
          </div>
        );
      })}
    </Stack>
  );
}

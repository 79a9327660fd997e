import { api, type CertificateRef, formatDate } from "@carecampus/contract";
import { Anchor, Stack, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useRef } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl, freshLink } from "../api/client";
import { settings } from "../app/settings";
import { usePdfAvailable } from "../offline/pdf-availability";
import { certificateLineId, RevokeCertificateButton, RevokedMark, useFocusWhenRevoked } from "./RevokeCertificate";

/** The text of one issue's line: "earlier: …" by default, or a caller's (all issues of a former employee). */
type LineKey = "certificateHistory.line" | "former.certificateLine";

/** Staff who may revoke: the training's name and the holder, for the "Revoke" of each line still counting. */
export interface RevokeFor {
  training: string;
  userId: number;
}

/**
 * One earlier issue: its dates and its PDF, downloaded like the current certificate (ExpiryBadge);
 * a revoked one marked with its day and reason, one still counting with staff's "Revoke".
 */
function EarlierCertificate({
  certificate,
  lineKey,
  revoke,
}: {
  certificate: CertificateRef;
  lineKey: LineKey;
  revoke?: RevokeFor | undefined;
}) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const ref = useRef<HTMLLIElement>(null);
  const pdfAvailable = usePdfAvailable();
  useFocusWhenRevoked(certificate, ref);
  const line = t(lineKey, {
    acquired: formatDate(certificate.acquired_at, zone),
    expires: formatDate(certificate.expires_at, zone),
  });
  return (
    <Text
      component="li"
      size="xs"
      c="dimmed"
      data-testid="earlier-certificate"
      id={certificateLineId(certificate.id)}
      ref={ref}
      tabIndex={-1}
    >
      {line}{" "}
      {pdfAvailable({ id: certificate.id, partner: false }) && (
        <Anchor
          size="xs"
          {...freshLink(() => authedUrl(api.certificatePdf, { query: { id: certificate.id } }))}
          target="_blank"
          rel="noopener"
          // Its name starts with the text it shows (WCAG 2.5.3), the line after it tells which; underlined,
          // as a link inside a line of text is not told apart by its colour alone.
          aria-label={`${t("certificateHistory.download")}: ${line}`}
          underline="always"
        >
          <IconDownload size={12} aria-hidden style={{ verticalAlign: "middle" }} /> {t("certificateHistory.download")}
        </Anchor>
      )}{" "}
      {certificate.revoked ? (
        <RevokedMark revoked={certificate.revoked} />
      ) : (
        revoke && <RevokeCertificateButton certificate={certificate} {...revoke} />
      )}
    </Text>
  );
}

/**
 * A training's earlier certificates (renewals keep them as history, newest first): one compact
 * line per issue with its dates and a download link, revoked ones marked. Nothing when there
 * are none. With `revoke` (staff with certificate.revoke), each line still counting can be revoked.
 */
export function CertificateHistory({
  certificates,
  lineKey = "certificateHistory.line",
  revoke,
}: {
  certificates: CertificateRef[];
  lineKey?: LineKey;
  revoke?: RevokeFor | undefined;
}) {
  if (certificates.length === 0) return null;
  return (
    <Stack
      gap={0}
      component="ul"
      style={{ listStyle: "none", padding: 0, margin: 0 }}
      data-testid="certificate-history"
    >
      {certificates.map((c) => (
        <EarlierCertificate key={c.id} certificate={c} lineKey={lineKey} revoke={revoke} />
      ))}
    </Stack>
  );
}

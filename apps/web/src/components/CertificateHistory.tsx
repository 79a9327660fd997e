import { api, type CertificateRef, formatDate } from "@carecampus/contract";
import { Anchor, Stack, Text } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { authedUrl, freshLink } from "../api/client";
import { settings } from "../app/settings";

/** The text of one issue's line: "earlier: …" by default, or a caller's (all issues of a former employee). */
type LineKey = "certificateHistory.line" | "former.certificateLine";

/** One earlier issue: its dates and its PDF, downloaded like the current certificate (ExpiryBadge). */
function EarlierCertificate({ certificate, lineKey }: { certificate: CertificateRef; lineKey: LineKey }) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const line = t(lineKey, {
    acquired: formatDate(certificate.acquired_at, zone),
    expires: formatDate(certificate.expires_at, zone),
  });
  return (
    <Text component="li" size="xs" c="dimmed" data-testid="earlier-certificate">
      {line}{" "}
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
    </Text>
  );
}

/**
 * A training's earlier certificates (renewals keep them as history, newest first): one compact
 * line per issue with its dates and a download link. Nothing when there are none.
 */
export function CertificateHistory({
  certificates,
  lineKey = "certificateHistory.line",
}: {
  certificates: CertificateRef[];
  lineKey?: LineKey;
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
        <EarlierCertificate key={c.id} certificate={c} lineKey={lineKey} />
      ))}
    </Stack>
  );
}

import { type CertificateRef, endpoints, expiryColour, formatShortDate } from "@carecampus/contract";
import { Badge, Tooltip } from "@mantine/core";
import { IconCertificate } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { authedUrl } from "../api/client";
import { settings } from "../app/settings";

export const EXPIRY_COLOURS = { red: "red", orange: "orange", yellow: "yellow", green: "teal" } as const;

/** The certificate expiry badge (DD.MM.YY, coloured by spec §4); a click opens the certificate. */
export function ExpiryBadge({ certificate, size = "lg" }: { certificate: CertificateRef; size?: "sm" | "md" | "lg" }) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const colour = expiryColour(certificate.expires_at, new Date(), zone);
  const date = formatShortDate(certificate.expires_at, zone);
  return (
    <Tooltip label={`${t(`expiry.${colour}`)} – ${t("training.download")}`}>
      <Badge
        component="a"
        href={authedUrl(endpoints.certificatePdf, { query: { id: certificate.id } })}
        target="_blank"
        rel="noopener"
        size={size}
        color={EXPIRY_COLOURS[colour]}
        variant={colour === "yellow" ? "light" : "filled"}
        leftSection={<IconCertificate size={14} />}
        style={{ cursor: "pointer" }}
        aria-label={`${t("training.download")}: ${t("training.validUntil", { date })}`}
        onClick={(e) => e.stopPropagation()}
        data-colour={colour}
      >
        {date}
      </Badge>
    </Tooltip>
  );
}

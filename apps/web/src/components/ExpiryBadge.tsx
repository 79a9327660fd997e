import { api, type CertificateRef, type ExpiryColour, expiryColour, formatShortDate } from "@carecampus/contract";
import { Badge, Tooltip } from "@mantine/core";
import { IconCertificate } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { authedUrl, freshLink } from "../api/client";
import { settings } from "../app/settings";
import { usePdfAvailable } from "../offline/pdf-availability";

export const EXPIRY_COLOURS = { red: "red", orange: "orange", yellow: "yellow", green: "teal" } as const;

/**
 * A badge in an expiry colour whose text reads at 4.5:1 or more (WCAG AA): dark shades with
 * white text, yellow as a light badge with dark text. The plain colours above stay for swatches.
 */
export function expiryBadgeProps(colour: ExpiryColour): { color: string; variant: "filled" | "light" } {
  switch (colour) {
    case "red":
      return { color: "red.9", variant: "filled" };
    case "orange":
      return { color: "#c2410c", variant: "filled" };
    case "yellow":
      return { color: "yellow", variant: "light" };
    default:
      return { color: "teal.9", variant: "filled" };
  }
}

/** The red of 'no certificate' as text or outline on the page background: red 9 in light schemes (5.4:1), red 4 in the dark one (set in App.tsx). */
export const NO_CERTIFICATE_COLOUR = "var(--cc-danger-text)";

/** The certificate expiry badge (DD.MM.YY, coloured by spec §4); a click opens the certificate. */
export function ExpiryBadge({ certificate, size = "lg" }: { certificate: CertificateRef; size?: "sm" | "md" | "lg" }) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const colour = expiryColour(certificate.expires_at, new Date(), zone);
  const date = formatShortDate(certificate.expires_at, zone);
  const link = freshLink(() => authedUrl(api.certificatePdf, { query: { id: certificate.id } }));
  // Offline, a certificate whose PDF is not kept on the device shows as a badge only.
  if (!usePdfAvailable()({ id: certificate.id, partner: false })) {
    return (
      <Badge
        size={size}
        {...expiryBadgeProps(colour)}
        leftSection={<IconCertificate size={14} />}
        style={{ flexShrink: 0, overflow: "visible" }}
        aria-label={`${t(`expiry.${colour}`)}: ${t("training.validUntil", { date })}`}
        data-colour={colour}
      >
        {date}
      </Badge>
    );
  }
  return (
    <Tooltip label={`${t(`expiry.${colour}`)} – ${t("training.download")}`}>
      <Badge
        component="a"
        {...link}
        target="_blank"
        rel="noopener"
        size={size}
        {...expiryBadgeProps(colour)}
        leftSection={<IconCertificate size={14} />}
        // A date is never cut off ('30.11…'): the badge keeps its width in a crowded row.
        style={{ cursor: "pointer", flexShrink: 0, overflow: "visible" }}
        aria-label={`${t("training.download")}: ${t("training.validUntil", { date })}`}
        onClick={(e: React.MouseEvent<HTMLAnchorElement>) => {
          // Inside a card that is a link itself: only the certificate opens.
          e.stopPropagation();
          link.onClick(e);
        }}
        data-colour={colour}
      >
        {date}
      </Badge>
    </Tooltip>
  );
}

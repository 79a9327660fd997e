import { WIKI_CONFIRMATION_COLOURS, type WikiConfirmationState, type WikiPageSummary } from "@carecampus/contract";
import { Badge } from "@mantine/core";
import { IconBuilding, IconCircleCheck, IconPencil, IconSignature } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { expiryBadgeProps } from "../../components/ExpiryBadge";

/** The caller's read confirmation in the overview's colours, readable in every theme (ExpiryBadge's shades). */
export function ConfirmationBadge({ state, size = "sm" }: { state: WikiConfirmationState; size?: "sm" | "md" }) {
  const { t } = useTranslation();
  return (
    <Badge
      size={size}
      {...expiryBadgeProps(WIKI_CONFIRMATION_COLOURS[state])}
      leftSection={state === "confirmed" ? <IconCircleCheck size={12} /> : <IconSignature size={12} />}
      data-colour={WIKI_CONFIRMATION_COLOURS[state]}
      // Never narrower than its words: in a table at 360 px it was squeezed to "N…".
      style={{ textTransform: "none", minWidth: "max-content" }}
    >
      {t(`wiki.state.${state}`)}
    </Badge>
  );
}

/** What a page in the tree is: a draft, changed since release, a facility's own, awaiting the caller's confirmation. */
export function PageBadges({ page }: { page: WikiPageSummary }) {
  const { t } = useTranslation();
  const plain = { size: "sm", variant: "default", style: { textTransform: "none" } } as const;
  return (
    <>
      {page.status === "draft" && (
        <Badge {...plain} leftSection={<IconPencil size={12} />} data-testid="badge-draft">
          {t("wiki.badge.draft")}
        </Badge>
      )}
      {page.status === "released" && page.has_draft && (
        <Badge {...plain} leftSection={<IconPencil size={12} />} data-testid="badge-changed">
          {t("wiki.badge.changed")}
        </Badge>
      )}
      {page.facility_id !== null && (
        <Badge {...plain} leftSection={<IconBuilding size={12} />}>
          {t("wiki.badge.facility")}
        </Badge>
      )}
      {page.confirmation && page.confirmation !== "confirmed" && (
        <span data-testid="badge-confirm">
          <Badge
            size="sm"
            {...expiryBadgeProps(WIKI_CONFIRMATION_COLOURS[page.confirmation])}
            leftSection={<IconSignature size={12} />}
            style={{ textTransform: "none" }}
          >
            {t("wiki.badge.confirm")}
          </Badge>
        </span>
      )}
      {page.confirmation === "confirmed" && (
        <IconCircleCheck size={18} color="var(--mantine-color-teal-filled)" aria-label={t("wiki.state.confirmed")} />
      )}
    </>
  );
}

import type { HelpBadgeColour } from "@carecampus/contract";
import { Badge } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { expiryBadgeProps } from "./ExpiryBadge";

/** The count of learners who asked, coloured by how many (contract HELP_BADGE_THRESHOLDS). */
export function HelpBadge({ count, color }: { count: number; color: HelpBadgeColour }) {
  const { t } = useTranslation();
  return (
    <Badge
      size="lg"
      circle={count < 100}
      {...expiryBadgeProps(color)}
      aria-label={t("helpRequests.askedBy", { count })}
      data-colour={color}
      style={{ flexShrink: 0 }}
    >
      {count}
    </Badge>
  );
}

import { ActionIcon, Indicator, Tooltip } from "@mantine/core";
import { IconLifebuoy } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useRequiredSession } from "../../session/store";
import { useOpenHelpCount } from "./queries";

/** The header's count of open help requests, for staff while there are any. */
export function HelpRequestsIndicator() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const count = useOpenHelpCount(user.roles);
  if (count === 0) return null;
  const label = t("helpRequests.open_count", { count });
  return (
    <Tooltip label={label}>
      <Indicator label={count > 99 ? "99+" : count} size={18} color="red" offset={4} inline>
        <ActionIcon
          component={Link}
          to="/helprequests"
          variant="subtle"
          size="lg"
          aria-label={label}
          data-testid="help-indicator"
        >
          <IconLifebuoy size={24} />
        </ActionIcon>
      </Indicator>
    </Tooltip>
  );
}

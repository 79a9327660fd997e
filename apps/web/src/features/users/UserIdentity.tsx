import type { AdminUser } from "@carecampus/contract";
import { Group, Text, VisuallyHidden } from "@mantine/core";
import { IconAt, IconBuilding } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import classes from "./users.module.css";

/**
 * A user card's second line: login and facility tell apart two people of the same name without
 * opening the card; `children` adds what else the card shows there (a former employee's last day).
 */
export function UserIdentity({
  user,
  children,
  testId,
}: {
  user: Pick<AdminUser, "login" | "facility">;
  children?: ReactNode;
  testId?: string;
}) {
  const { t } = useTranslation();
  return (
    <Group gap="md" style={{ rowGap: 0 }} wrap="wrap" mt={2} data-testid={testId}>
      <Group gap={4} wrap="nowrap" miw={0}>
        <IconAt size={14} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm" className={classes.identity}>
          <VisuallyHidden>{t("users.login")}: </VisuallyHidden>
          {user.login}
        </Text>
      </Group>
      {user.facility && (
        <Group gap={4} wrap="nowrap" miw={0}>
          <IconBuilding size={14} aria-hidden style={{ flexShrink: 0 }} />
          <Text size="sm" className={classes.identity}>
            <VisuallyHidden>{t("users.facility")}: </VisuallyHidden>
            {user.facility.name}
          </Text>
        </Group>
      )}
      {children}
    </Group>
  );
}

import type { ImportDeletedUser } from "@carecampus/contract";
import { Box, List, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";

/**
 * Whom the import archives, by name and login, before anyone confirms: a count alone does not
 * show that the wrong facility's file was chosen. A long list scrolls inside the dialog; the
 * region takes the keyboard focus so it can be scrolled without a mouse.
 */
export function DeletionList({ users }: { users: readonly ImportDeletedUser[] }) {
  const { t } = useTranslation();
  return (
    <Box
      component="section"
      tabIndex={0}
      aria-label={t("former.importListLabel")}
      data-testid="import-deletion-list"
      mah="min(40vh, 320px)"
      mb="md"
      px="sm"
      py="xs"
      style={{
        overflowY: "auto",
        border: "1px solid var(--mantine-color-default-border)",
        borderRadius: "var(--mantine-radius-sm)",
      }}
    >
      <List spacing={2} size="sm" listStyleType="none">
        {users.map((u) => (
          <List.Item key={u.id}>
            <Text span size="sm" fw={600}>
              {u.surname}, {u.name}
            </Text>{" "}
            <Text span size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
              ({u.login})
            </Text>
          </List.Item>
        ))}
      </List>
    </Box>
  );
}

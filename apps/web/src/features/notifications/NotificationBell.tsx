import { expiryColour, type Notification } from "@carecampus/contract";
import { ActionIcon, Indicator, Menu, Text } from "@mantine/core";
import { IconBell } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { api } from "../../api/client";

const HOUR = 3_600_000;

function parseMessage(raw: string): { key: string; values: Record<string, string> } {
  try {
    const parsed = JSON.parse(raw) as { key?: unknown; values?: unknown };
    if (typeof parsed.key === "string") {
      return { key: parsed.key, values: (parsed.values ?? {}) as Record<string, string> };
    }
  } catch {
    // a plain-text message
  }
  return { key: "notifications.plain", values: { text: raw } };
}

const COLOURS = { red: "red", orange: "orange", yellow: "yellow", green: "teal" } as const;

/** Navbar bell: unread count, items coloured like certificates, removed once read (spec §4). */
export function NotificationBell() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data = [] } = useQuery({
    queryKey: ["notifications"],
    queryFn: () => api<Notification[]>("/notifications", { silent: true }),
    // Re-fetched when the last update is more than an hour old (spec §4).
    staleTime: HOUR,
    refetchInterval: HOUR,
  });
  const markRead = useMutation({
    mutationFn: (id: number) => api(`/notifications/${id}`, { method: "DELETE" }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["notifications"] }),
  });
  return (
    <Menu position="bottom-end" width={300} shadow="md">
      <Menu.Target>
        <Indicator label={data.length} size={18} disabled={data.length === 0} color="red" offset={4}>
          <ActionIcon variant="subtle" size="lg" aria-label={t("notifications.title", { count: data.length })}>
            <IconBell size={22} />
          </ActionIcon>
        </Indicator>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t("notifications.title", { count: data.length })}</Menu.Label>
        {data.length === 0 && (
          <Text size="sm" c="dimmed" px="sm" py="xs">
            {t("notifications.none")}
          </Text>
        )}
        {data.map((n) => {
          const { key, values } = parseMessage(n.CustomMessage);
          const colour = n.ExpiresAt ? COLOURS[expiryColour(n.ExpiresAt)] : "blue";
          return (
            <Menu.Item
              key={n.ID}
              onClick={() => markRead.mutate(n.ID)}
              style={{ borderLeft: `4px solid var(--mantine-color-${colour}-6)` }}
            >
              <Text size="sm">{t(key, values)}</Text>
            </Menu.Item>
          );
        })}
      </Menu.Dropdown>
    </Menu>
  );
}

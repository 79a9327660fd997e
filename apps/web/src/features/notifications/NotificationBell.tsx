import { api, ErrorCode, type Notification, NotificationMessageKey } from "@carecampus/contract";
import { ActionIcon, Indicator, Popover, ScrollArea, Stack, Text, ThemeIcon, UnstyledButton } from "@mantine/core";
import {
  IconBell,
  IconBook,
  IconCalendarEvent,
  IconCertificate,
  IconCertificateOff,
  IconKey,
  IconMessageCircle,
  IconUsersGroup,
} from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ApiError, call, showError } from "../../api/client";
import { settings } from "../../app/settings";
import { EXPIRY_COLOURS } from "../../components/ExpiryBadge";
import { useRequiredSession } from "../../session/store";
import { noticeColour, noticeTarget, noticeText, parseMessage } from "./messages";
import classes from "./NotificationBell.module.css";

const HOUR = 3_600_000;
const KEY = ["notifications"] as const;

function NoticeIcon({ messageKey }: { messageKey: string }) {
  if (messageKey === NotificationMessageKey.certificateExpires) return <IconCertificate size={16} />;
  if (messageKey === NotificationMessageKey.certificatesExpireSummary) return <IconUsersGroup size={16} />;
  if (messageKey === NotificationMessageKey.passwordReset) return <IconKey size={16} />;
  if (messageKey === NotificationMessageKey.helpReply) return <IconMessageCircle size={16} />;
  if (messageKey === NotificationMessageKey.calendarReminder) return <IconCalendarEvent size={16} />;
  if (messageKey === NotificationMessageKey.wikiConfirmReminder) return <IconBook size={16} />;
  if (messageKey === NotificationMessageKey.certificateRevoked) return <IconCertificateOff size={16} />;
  return <IconBell size={16} />;
}

/** Marks read; a notice another tab already read (404) is gone all the same. */
async function markNoticeRead(id: number): Promise<void> {
  try {
    await call(api.notificationRead, { params: { id }, silent: true });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return;
    // An ended session goes to /login without a toast, as everywhere.
    if (!(err instanceof ApiError && (err.status === 401 || err.code === ErrorCode.sessionExpired))) showError(err);
    throw err;
  }
}

/**
 * Navbar bell: unread count, items coloured like certificates, removed once read (spec §4); a
 * click marks the item read and opens the training (employee) or the progress overview (staff).
 */
export function NotificationBell() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useRequiredSession();
  const queryClient = useQueryClient();
  const { data = [] } = useQuery({
    queryKey: KEY,
    queryFn: () => call(api.notificationList, { silent: true }),
    // Re-fetched when the last update is more than an hour old (spec §4).
    staleTime: HOUR,
    refetchInterval: HOUR,
  });
  const markRead = useMutation({
    mutationFn: markNoticeRead,
    // Gone from the list at once; back if the server refuses.
    onMutate: async (id: number) => {
      await queryClient.cancelQueries({ queryKey: KEY });
      const previous = queryClient.getQueryData<Notification[]>(KEY);
      queryClient.setQueryData<Notification[]>(KEY, (list) => list?.filter((n) => n.ID !== id));
      return { previous };
    },
    onError: (_err, _id, context) => {
      if (context?.previous) queryClient.setQueryData(KEY, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: KEY }),
  });
  const title = t("notifications.title", { count: data.length });
  const [opened, setOpened] = useState(false);
  return (
    // The count sits outside the popover's target: the ARIA attributes belong on the button.
    <Indicator
      label={data.length}
      size={18}
      disabled={data.length === 0}
      color="red"
      offset={4}
      data-testid="notification-count"
    >
      {/*
        A dialog with a list of buttons, not a menu: the list may be empty, and it holds notices
        to read, not commands. Tab moves through the notices; Escape closes and returns the focus.
      */}
      <Popover
        position="bottom-end"
        width={340}
        shadow="md"
        offset={6}
        opened={opened}
        onChange={setOpened}
        trapFocus
        returnFocus
      >
        <Popover.Target>
          <ActionIcon
            variant="subtle"
            size="lg"
            aria-label={title}
            data-testid="notification-bell"
            onClick={() => setOpened((o) => !o)}
          >
            <IconBell size={22} />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown maw="calc(100vw - 16px)" p={4} data-testid="notification-list">
          <Text size="xs" fw={500} c="dimmed" px="sm" py={6}>
            {title}
          </Text>
          {data.length === 0 && (
            <Text size="sm" c="dimmed" px="sm" py="xs">
              {t("notifications.none")}
            </Text>
          )}
          <ScrollArea.Autosize mah="min(420px, 70vh)" type="auto" offsetScrollbars="y">
            <ul className={classes.list}>
              {data.map((n) => {
                const message = parseMessage(n.CustomMessage);
                const text = noticeText(n, message, settings["time-zone"]);
                const colour = noticeColour(n, message, settings["time-zone"]);
                const mantineColour = colour ? EXPIRY_COLOURS[colour] : "blue";
                const target = noticeTarget(message, user.roles);
                return (
                  <li key={n.ID}>
                    <UnstyledButton
                      className={classes.notice}
                      data-testid="notification"
                      data-colour={colour ?? "none"}
                      onClick={() => {
                        setOpened(false);
                        markRead.mutate(n.ID);
                        if (target) void navigate(target);
                      }}
                      style={{ borderLeftColor: `var(--mantine-color-${mantineColour}-6)` }}
                    >
                      <ThemeIcon
                        color={mantineColour}
                        variant={colour === "yellow" ? "light" : "filled"}
                        radius="xl"
                        size={28}
                        aria-hidden
                      >
                        <NoticeIcon messageKey={message.key} />
                      </ThemeIcon>
                      <Stack gap={2}>
                        <Text size="sm" lh={1.35} component="span">
                          {t(text.key, text.values)}
                        </Text>
                        {colour && (
                          <Text size="xs" c="dimmed" component="span">
                            {t(`expiry.${colour}`)}
                          </Text>
                        )}
                      </Stack>
                    </UnstyledButton>
                  </li>
                );
              })}
            </ul>
          </ScrollArea.Autosize>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

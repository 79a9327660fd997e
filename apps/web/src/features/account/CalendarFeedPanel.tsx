import { api } from "@carecampus/contract";
import { Alert, Button, CopyButton, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { IconCalendarShare } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../../api/client";
import { calendarKeys } from "../../queries/calendar";

/** The personal iCalendar subscription: training dates in the phone's own calendar app. */
export function CalendarFeedPanel() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const feed = useQuery({ queryKey: calendarKeys.feed, queryFn: () => call(api.calendarFeedGet) });
  const [url, setUrl] = useState<string | null>(null);
  const absolute = url ? new URL(url, window.location.origin).toString() : null;

  // A failure: the client shows the error toast.
  const create = useMutation({
    mutationFn: () => call(api.calendarFeedCreate),
    onSuccess: (res) => {
      setUrl(res.url);
      queryClient.setQueryData(calendarKeys.feed, res);
    },
  });
  const revoke = useMutation({
    mutationFn: () => call(api.calendarFeedRevoke),
    onSuccess: (res) => {
      setUrl(null);
      queryClient.setQueryData(calendarKeys.feed, res);
      showSuccess(t("calendar.feed.revoked"));
    },
  });
  const busy = create.isPending || revoke.isPending;

  return (
    <Paper withBorder p="lg" mt="lg" data-testid="calendar-feed">
      <Group gap="xs" mb="xs" wrap="nowrap">
        <IconCalendarShare size={22} aria-hidden />
        <Title order={2} size="h4">
          {t("calendar.feed.title")}
        </Title>
      </Group>
      <Text size="sm" mb="xs">
        {t("calendar.feed.text")}
      </Text>
      <Text size="sm" c="dimmed" mb="sm" data-testid="calendar-feed-password">
        {t("calendar.feed.password")}
      </Text>
      <Stack gap="sm">
        {absolute ? (
          <Group gap="xs" align="flex-end" wrap="nowrap">
            <TextInput label={t("calendar.feed.url")} value={absolute} readOnly style={{ flex: 1 }} />
            <CopyButton value={absolute}>
              {({ copied, copy }) => (
                <Button variant="default" onClick={copy}>
                  {copied ? t("calendar.feed.copied") : t("calendar.feed.copy")}
                </Button>
              )}
            </CopyButton>
          </Group>
        ) : (
          feed.data?.active && (
            <Alert color="gray" variant="light">
              {t("calendar.feed.hidden")}
            </Alert>
          )
        )}
        <Group gap="sm">
          <Button onClick={() => create.mutate()} loading={busy}>
            {feed.data?.active ? t("calendar.feed.rotate") : t("calendar.feed.create")}
          </Button>
          {feed.data?.active && (
            <Button variant="subtle" color="red" onClick={() => revoke.mutate()} disabled={busy}>
              {t("calendar.feed.revoke")}
            </Button>
          )}
        </Group>
      </Stack>
    </Paper>
  );
}

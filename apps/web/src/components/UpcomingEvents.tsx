import { api, formatDate, formatTime, type MyEvent } from "@carecampus/contract";
import { ActionIcon, Group, Paper, Stack, Text, Title, Tooltip } from "@mantine/core";
import { IconCalendarEvent, IconDownload } from "@tabler/icons-react";
import type { TFunction } from "i18next";
import { useTranslation } from "react-i18next";
import { authedUrl, freshLink } from "../api/client";
import { settings } from "../app/settings";
import { useMyEvents } from "../queries/calendar";

const previousDay = (day: string) => {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d - 1)).toISOString().slice(0, 10);
};

/** "03.12.2026, 14:00–15:30" or "03.12.2026, all day" (dates DD.MM.yyyy, 24-hour, spec §9). */
export function eventWhen(e: Pick<MyEvent, "Start" | "End" | "AllDay">, t: TFunction, zone: string): string {
  if (e.AllDay) {
    const first = formatDate(new Date(`${e.Start}T12:00:00Z`), "UTC");
    const lastDay = previousDay(e.End);
    const last = formatDate(new Date(`${lastDay}T12:00:00Z`), "UTC");
    return t("calendar.whenAllDay", { date: lastDay === e.Start ? first : `${first}–${last}` });
  }
  return t("calendar.whenTimed", {
    date: formatDate(e.Start, zone),
    from: formatTime(e.Start, zone),
    until: formatTime(e.End, zone),
  });
}

/** The learner's next training dates (start page), each with its calendar file. */
export function UpcomingEvents({ limit = 3 }: { limit?: number }) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const mine = useMyEvents();
  const events = (mine.data ?? []).slice(0, limit);
  if (events.length === 0) return null;
  return (
    <Paper withBorder p="md" mb="lg" data-testid="upcoming-events">
      <Title order={2} size="h4" mb="xs">
        {t("calendar.upcoming")}
      </Title>
      <Stack gap="xs">
        {events.map((e) => (
          <Group key={e.ID} justify="space-between" wrap="nowrap" gap="xs" align="flex-start">
            <Group gap="xs" wrap="nowrap" align="flex-start" style={{ minWidth: 0 }}>
              <IconCalendarEvent size={22} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
              <div style={{ minWidth: 0 }}>
                <Text fw={600}>{e.Label || e.Training.name}</Text>
                <Text size="sm">{eventWhen(e, t, zone)}</Text>
                {e.Location && (
                  <Text size="sm" c="dimmed">
                    {e.Location}
                  </Text>
                )}
              </div>
            </Group>
            <Tooltip label={t("calendar.ics")}>
              <ActionIcon
                component="a"
                {...freshLink(() => authedUrl(api.calendarIcs, { params: { id: e.ID } }))}
                download={`event-${e.ID}.ics`}
                variant="subtle"
                size="lg"
                aria-label={`${t("calendar.ics")}: ${e.Label || e.Training.name}`}
              >
                <IconDownload size={20} />
              </ActionIcon>
            </Tooltip>
          </Group>
        ))}
      </Stack>
    </Paper>
  );
}

import { api, type CalendarEventDetail, formatDate, formatIsoDay } from "@carecampus/contract";
import { Alert, Button, Checkbox, Stack, Text } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconClipboardCheck } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";

/**
 * After the event has begun: who attended. For a passive (in-person) training this issues the
 * certificates in one step, valid from the event's date — which it names, as a past event's
 * certificates date back. Shown first in the dialog of a started event, its first box focused.
 */
export function Attendance({ event, onSaved }: { event: CalendarEventDetail; onSaved: () => Promise<void> }) {
  const { t } = useTranslation();
  // Ids as strings, as the checkbox group holds them.
  const form = useForm({
    initialValues: { attended: event.Invitees.filter((i) => i.attended === true).map((i) => String(i.id)) },
  });
  const save = useMutation({
    mutationFn: () =>
      call(api.calendarAttendance, {
        params: { id: event.ID },
        body: { attended: form.getValues().attended.map(Number) },
      }),
    // A failure: the client shows the error toast.
    onSuccess: async (res) => {
      showSuccess(t("calendar.attendanceSaved", { count: res.certificates }));
      await onSaved();
    },
  });
  if (event.Invitees.length === 0) return null;
  return (
    <Alert
      color="teal"
      variant="light"
      icon={<IconClipboardCheck />}
      title={t("calendar.attendance")}
      data-testid="attendance"
    >
      <Stack gap={6}>
        <Text size="sm">
          {event.Training.passive
            ? t("calendar.attendancePassive", {
                // An all-day event's Start is its day (YYYY-MM-DD), not an instant.
                date: event.AllDay
                  ? (formatIsoDay(event.Start) ?? event.Start)
                  : formatDate(event.Start, settings["time-zone"]),
              })
            : t("calendar.attendanceActive")}
        </Text>
        <Checkbox.Group {...form.getInputProps("attended")}>
          <Stack gap={6}>
            {event.Invitees.map((i, n) => (
              <Checkbox
                key={i.id}
                value={String(i.id)}
                label={`${i.name} ${i.surname}`}
                {...(n === 0 && { "data-autofocus": true })}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Button
          onClick={() => save.mutate()}
          loading={save.isPending}
          variant="filled"
          mt={4}
          style={{ alignSelf: "flex-start" }}
        >
          {t("calendar.saveAttendance")}
        </Button>
      </Stack>
    </Alert>
  );
}

import { api, type CalendarEventDetail } from "@carecampus/contract";
import { Alert, Button, Checkbox, Stack, Text } from "@mantine/core";
import { IconClipboardCheck } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../../api/client";

/**
 * After the event has begun: who attended. For a passive (in-person) training this issues the
 * certificates in one step, valid from the event's date.
 */
export function Attendance({ event, onSaved }: { event: CalendarEventDetail; onSaved: () => Promise<void> }) {
  const { t } = useTranslation();
  const [attended, setAttended] = useState<number[]>(
    event.Invitees.filter((i) => i.attended === true).map((i) => i.id),
  );
  const [busy, setBusy] = useState(false);
  const save = async () => {
    setBusy(true);
    try {
      const res = await call(api.calendarAttendance, { params: { id: event.ID }, body: { attended } });
      showSuccess(t("calendar.attendanceSaved", { count: res.certificates }));
      await onSaved();
    } catch {
      // toast shown
    } finally {
      setBusy(false);
    }
  };
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
          {event.Training.passive ? t("calendar.attendancePassive") : t("calendar.attendanceActive")}
        </Text>
        <Checkbox.Group value={attended.map(String)} onChange={(v) => setAttended(v.map(Number))}>
          <Stack gap={6}>
            {event.Invitees.map((i) => (
              <Checkbox key={i.id} value={String(i.id)} label={`${i.name} ${i.surname}`} />
            ))}
          </Stack>
        </Checkbox.Group>
        <Button onClick={() => void save()} loading={busy} variant="filled" mt={4} style={{ alignSelf: "flex-start" }}>
          {t("calendar.saveAttendance")}
        </Button>
      </Stack>
    </Alert>
  );
}

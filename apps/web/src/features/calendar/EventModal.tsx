import "@mantine/dates/styles.css";
import {
  api,
  type CalendarEventDetail,
  EVENT_COLOURS,
  formatIsoDay,
  isoDay,
  type ProposalEntry,
  type Role,
  seesAllFacilities,
} from "@carecampus/contract";
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Flex,
  Group,
  Loader,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { DatePickerInput, DatesProvider, TimePicker } from "@mantine/dates";
import { useForm } from "@mantine/form";
import { IconDownload, IconTrash } from "@tabler/icons-react";
import { useMutation, useQuery } from "@tanstack/react-query";
import "dayjs/locale/de";
import "dayjs/locale/es";
import "dayjs/locale/fr";
import "dayjs/locale/pt-br";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl, call, freshLink, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { fieldErrors } from "../../components/form-errors";
import { useCatalogue, useFacilities } from "../../queries/admin";
import { calendarKeys } from "../../queries/calendar";
import { useRequiredSession } from "../../session/store";
import { Attendance } from "./Attendance";
import { ColourChoice } from "./ColourChoice";
import { type EventFormValues, emptyEvent, eventBody, eventProblems, eventValues } from "./event-form";
import { InviteePicker } from "./InviteePicker";

/**
 * A new event (on `day`; with `plan`, for a facility's training and its people red or orange
 * today, as the staff start page asks) or a stored one.
 */
export type EventModalTarget =
  | { kind: "new"; day: string; plan?: { facility: number; topic: number; training: number } }
  | { kind: "edit"; id: number };

interface Props {
  target: EventModalTarget;
  onClose: () => void;
  onChanged: () => Promise<void>;
}

/** The edit modal of spec §2: date, all-day, 24-hour times, facility, topic, training, invitees, attendance. */
export function EventModal({ target, onClose, onChanged }: Props) {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const id = target.kind === "edit" ? target.id : 0;
  const detail = useQuery({
    queryKey: calendarKeys.one(id),
    queryFn: () => call(api.calendarGet, { params: { id } }),
    enabled: target.kind === "edit",
    staleTime: 0,
  });
  const title = target.kind === "new" ? t("calendar.newTitle") : t("calendar.editTitle");
  const ready = target.kind === "new" || detail.data;
  return (
    // Not centred: the invitee list arrives after the training is chosen and grows the dialog; a
    // centred dialog would then move everything above it up under the user's finger or pointer.
    <Modal opened onClose={onClose} title={title} size="lg">
      {!ready ? (
        detail.isError ? (
          <Alert color="gray">{t("calendar.missing")}</Alert>
        ) : (
          <Group justify="center" py="xl">
            <Loader />
          </Group>
        )
      ) : (
        <EventForm
          detail={detail.data}
          initial={detail.data ? eventValues(detail.data, settings["time-zone"]) : newValues(target, user)}
          invite={target.kind === "new" ? (target.plan ? redOrOrange : proposed) : null}
          onClose={onClose}
          onChanged={onChanged}
        />
      )}
    </Modal>
  );
}

/** A new event's first values: the day asked for, the staff member's own facility, or what the start page planned. */
function newValues(
  target: EventModalTarget,
  user: { roles: Role[]; facility?: { id: number } | null },
): EventFormValues {
  const day = target.kind === "new" ? target.day : "";
  const plan = target.kind === "new" ? target.plan : undefined;
  const facility = plan?.facility ?? (seesAllFacilities(user.roles) ? null : (user.facility?.id ?? null));
  return { ...emptyEvent(day, facility, new Date(), settings["time-zone"]), ...plan };
}

/**
 * The form's first field: the dialog opens on it, not on its close button, and its list opens on a
 * click or a key, not by itself.
 */
const firstField = { "data-autofocus": true, openOnFocus: false } as const;

/** Who a new event invites to begin with: the proposal (spec §4 red on its day), or those red or orange today. */
const proposed = (p: ProposalEntry) => p.proposed;
const redOrOrange = (p: ProposalEntry) => p.colour === "red" || p.colour === "orange";

function EventForm({
  detail,
  initial,
  invite,
  onClose,
  onChanged,
}: {
  detail: CalendarEventDetail | undefined;
  initial: EventFormValues;
  /** A new event's first invitees, chosen from the proposal; null for a stored event. */
  invite: ((p: ProposalEntry) => boolean) | null;
  onClose: () => void;
  onChanged: () => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const { user } = useRequiredSession();
  const zone = settings["time-zone"];
  const allFacilities = seesAllFacilities(user.roles);
  const facilities = useFacilities(allFacilities);
  // The event's own training may be newer than the kept catalogue (planned from the start page).
  const catalogue = useCatalogue({ topic: initial.topic, training: initial.training });
  const [confirmDelete, setConfirmDelete] = useState(false);
  const canEdit = detail ? detail.CanEdit : true;
  const attendanceFirst = detail?.Started && canEdit ? detail : undefined;
  // A start in the past, set now (not the one a stored event already had), is asked about first.
  const [past, setPast] = useState<EventFormValues | null>(null);
  const startsInPast = (values: EventFormValues) => {
    const start = eventBody(values, zone).Start;
    const inPast = values.allDay ? start < isoDay(new Date(), zone) : Date.parse(start) < Date.now();
    return inPast && start !== (detail ? eventBody(initial, zone).Start : null);
  };
  const form = useForm<EventFormValues>({
    mode: "controlled",
    initialValues: initial,
    validate: (values) => fieldErrors(eventProblems(values), (problem) => t(`calendar.problems.${problem}`)),
    validateInputOnChange: ["endDay", "startTime", "endTime"],
  });
  const v = form.getValues();
  const topics = catalogue.data ?? [];
  const topic = topics.find((x) => x.id === v.topic);
  const training = topic?.trainings.find((x) => x.id === v.training);

  const save = useMutation({
    mutationFn: async (values: EventFormValues) => {
      const body = eventBody(values, zone, detail?.ID);
      if (detail) await call(api.calendarUpdate, { body });
      else await call(api.calendarCreate, { body });
    },
    // A failure: the client's toast says what went wrong, the form stays.
    onSuccess: async () => {
      showSuccess(t("calendar.saved"));
      await onChanged();
      onClose();
    },
  });

  const remove = async () => {
    if (!detail) return;
    await call(api.calendarDelete, { params: { id: detail.ID } });
    showSuccess(t("calendar.deleted"));
    await onChanged();
    onClose();
  };

  const language = i18n.language === "br" ? "pt-br" : i18n.language;
  return (
    <DatesProvider settings={{ locale: language, firstDayOfWeek: 1 }}>
      <form onSubmit={form.onSubmit((values) => (startsInPast(values) ? setPast(values) : save.mutate(values)))}>
        <Stack gap="sm">
          {/* An event that has begun is opened to record who came: its attendance first. */}
          {attendanceFirst && <Attendance event={attendanceFirst} onSaved={onChanged} />}
          {allFacilities && (
            <Select
              label={t("calendar.facility")}
              data={(facilities.data ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
              value={v.facility ? String(v.facility) : null}
              onChange={(x) => {
                form.setFieldValue("facility", x ? Number(x) : null);
                form.setFieldValue("invitees", []);
              }}
              disabled={!canEdit}
              required
              searchable
              {...(!attendanceFirst && firstField)}
            />
          )}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t("calendar.topic")}
              data={topics.map((x) => ({ value: String(x.id), label: x.name }))}
              value={v.topic ? String(v.topic) : null}
              onChange={(x) => {
                form.setFieldValue("topic", x ? Number(x) : null);
                form.setFieldValue("training", null);
              }}
              disabled={!canEdit}
              required
              searchable
              {...(!allFacilities && !attendanceFirst && firstField)}
            />
            <Select
              label={t("calendar.training")}
              data={(topic?.trainings ?? []).map((x) => ({ value: String(x.id), label: x.name }))}
              value={v.training ? String(v.training) : null}
              onChange={(x) => form.setFieldValue("training", x ? Number(x) : null)}
              disabled={!canEdit || !topic}
              required
              searchable
              error={form.errors.training}
              description={!v.training ? t("calendar.trainingRequired") : undefined}
              data-testid="event-training"
            />
          </SimpleGrid>
          <TextInput
            label={t("calendar.label")}
            placeholder={training?.name ?? ""}
            disabled={!canEdit}
            maxLength={200}
            {...form.getInputProps("label")}
          />
          <Checkbox
            label={t("calendar.allDay")}
            disabled={!canEdit}
            {...form.getInputProps("allDay", { type: "checkbox" })}
          />
          <SimpleGrid cols={{ base: 1, sm: v.allDay ? 2 : 3 }} spacing="sm">
            <DatePickerInput
              label={v.allDay ? t("calendar.firstDay") : t("calendar.date")}
              valueFormat="DD.MM.YYYY"
              value={v.day}
              onChange={(x) => {
                if (!x) return;
                const day = String(x).slice(0, 10);
                form.setFieldValue("day", day);
                if (form.getValues().endDay < day) form.setFieldValue("endDay", day);
              }}
              disabled={!canEdit}
              required
            />
            {v.allDay ? (
              <DatePickerInput
                label={t("calendar.lastDay")}
                valueFormat="DD.MM.YYYY"
                value={v.endDay}
                minDate={v.day}
                onChange={(x) => x && form.setFieldValue("endDay", String(x).slice(0, 10))}
                error={form.errors.endDay}
                disabled={!canEdit}
              />
            ) : (
              <>
                <TimePicker
                  label={t("calendar.from")}
                  format="24h"
                  hoursInputLabel={`${t("calendar.from")}: ${t("calendar.hours")}`}
                  minutesInputLabel={`${t("calendar.from")}: ${t("calendar.minutes")}`}
                  value={v.startTime}
                  onChange={(x) => form.setFieldValue("startTime", x.slice(0, 5))}
                  error={form.errors.startTime}
                  disabled={!canEdit}
                />
                <TimePicker
                  label={t("calendar.until")}
                  format="24h"
                  hoursInputLabel={`${t("calendar.until")}: ${t("calendar.hours")}`}
                  minutesInputLabel={`${t("calendar.until")}: ${t("calendar.minutes")}`}
                  value={v.endTime}
                  onChange={(x) => form.setFieldValue("endTime", x.slice(0, 5))}
                  error={form.errors.endTime}
                  disabled={!canEdit}
                />
              </>
            )}
          </SimpleGrid>
          <TextInput
            label={t("calendar.location")}
            maxLength={200}
            disabled={!canEdit}
            {...form.getInputProps("location")}
          />
          <ColourChoice
            label={t("calendar.colour")}
            colours={EVENT_COLOURS}
            names={EVENT_COLOURS.map((_, i) => t(`calendar.colours.${i}`))}
            value={v.color}
            disabled={!canEdit}
            onChange={(c) => form.setFieldValue("color", c)}
          />
          {v.facility && v.training && (
            <InviteePicker
              facility={v.facility}
              training={v.training}
              day={v.day}
              selected={v.invitees}
              current={detail?.Invitees}
              preselect={invite}
              disabled={!canEdit}
              onChange={(ids) => form.setFieldValue("invitees", ids)}
            />
          )}
          {detail && (
            <Anchor
              {...freshLink(() => authedUrl(api.calendarIcs, { params: { id: detail.ID } }))}
              download={`event-${detail.ID}.ics`}
              size="sm"
              style={{ display: "inline-flex", alignItems: "center", gap: 4 }}
            >
              <IconDownload size={16} /> {t("calendar.ics")}
            </Anchor>
          )}
          {detail?.Organiser && (
            <Text size="sm" c="dimmed">
              {t("calendar.organiser", { name: detail.Organiser.name })}
            </Text>
          )}
          <Flex gap="sm" justify="space-between" direction={{ base: "column-reverse", xs: "row" }} mt="sm">
            {detail && canEdit ? (
              <Button
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={16} />}
                onClick={() => setConfirmDelete(true)}
              >
                {t("calendar.delete")}
              </Button>
            ) : (
              <span />
            )}
            <Flex gap="sm" direction={{ base: "column-reverse", xs: "row" }}>
              <Button variant="default" onClick={onClose}>
                {t("common.cancel")}
              </Button>
              {canEdit && (
                <Button type="submit" loading={save.isPending} disabled={!form.isValid()}>
                  {t("calendar.save")}
                </Button>
              )}
            </Flex>
          </Flex>
        </Stack>
      </form>
      <ConfirmDialog
        opened={past !== null}
        title={t("calendar.pastTitle")}
        message={t("calendar.pastText", { date: past ? (formatIsoDay(past.day) ?? past.day) : "" })}
        confirmLabel={t("calendar.pastSave")}
        onConfirm={async () => {
          if (past) await save.mutateAsync(past);
        }}
        onClose={() => setPast(null)}
      />
      <ConfirmDialog
        opened={confirmDelete}
        title={t("calendar.deleteTitle")}
        message={t("calendar.deleteText")}
        confirmLabel={t("calendar.delete")}
        danger
        onConfirm={remove}
        onClose={() => setConfirmDelete(false)}
      />
    </DatesProvider>
  );
}

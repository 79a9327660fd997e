import {
  expiryColour,
  formatDate,
  formatIsoDay,
  formatTime,
  mayOpenRoute,
  type Notification,
  NotificationDisplayKey,
  NotificationMessageKey,
  type Role,
  trainingAside,
} from "@carecampus/contract";

/** The translatable CustomMessage of a notification: an i18n key and its values. */
export interface NoticeMessage {
  key: string;
  values: Record<string, string>;
}

const CERTIFICATE_KEY = NotificationMessageKey.certificateExpires;
const SUMMARY_KEY = NotificationMessageKey.certificatesExpireSummary;

export function parseMessage(raw: string): NoticeMessage {
  try {
    const parsed = JSON.parse(raw) as { key?: unknown; values?: unknown };
    if (typeof parsed.key === "string") {
      const values: Record<string, string> = {};
      if (parsed.values && typeof parsed.values === "object") {
        for (const [k, v] of Object.entries(parsed.values)) values[k] = String(v);
      }
      return { key: parsed.key, values };
    }
  } catch {
    // a plain-text message
  }
  return { key: NotificationDisplayKey.plain, values: { text: raw } };
}

/** A YYYY-MM-DD calendar day (the server's) as DD.MM.yyyy; otherwise the instant's day in `zone`. */
function displayDate(day: string | undefined, instant: string | null, zone: string): string | undefined {
  const shown = day ? formatIsoDay(day) : undefined;
  if (shown) return shown;
  return instant ? formatDate(instant, zone) : undefined;
}

/**
 * The i18n key and values to show: the expiry-day stage ("0") reads "expired", and the date is
 * formatted DD.MM.yyyy (spec §9) in the configured time zone `zone`.
 */
export function noticeText(n: Pick<Notification, "ExpiresAt">, message: NoticeMessage, zone: string): NoticeMessage {
  const { key, values } = message;
  if (key === NotificationMessageKey.calendarReminder) return reminderText(values, zone);
  if (key === NotificationMessageKey.certificateRevoked) {
    return { key, values: { ...values, date: displayDate(values.date, null, zone) ?? "" } };
  }
  if (key !== CERTIFICATE_KEY && key !== SUMMARY_KEY) return message;
  const expired = values.stage === "0";
  const shown = {
    ...values,
    date: displayDate(values.date, n.ExpiresAt, zone) ?? "",
  };
  if (key === CERTIFICATE_KEY) return { key: expired ? NotificationDisplayKey.certificateExpired : key, values: shown };
  return { key: expired ? NotificationDisplayKey.certificatesExpiredSummary : key, values: shown };
}

/** A calendar reminder: today or tomorrow, at a time or all day, with the place when there is one. */
function reminderText(values: Record<string, string>, zone: string): NoticeMessage {
  const today = values.stage === "today";
  const allDay = values.allDay === "true";
  const key = today
    ? allDay
      ? NotificationDisplayKey.calendarReminderTodayAllDay
      : NotificationDisplayKey.calendarReminderToday
    : allDay
      ? NotificationDisplayKey.calendarReminderAllDay
      : NotificationMessageKey.calendarReminder;
  const time = !allDay && values.start ? formatTime(values.start, zone) : "";
  return {
    key,
    values: {
      ...values,
      time,
      trainingAside: trainingAside(values.label ?? "", values.training ?? ""),
      location: values.location ? ` – ${values.location}` : "",
    },
  };
}

/**
 * Where a click leads: the employee to the training (expiry, help reply, event), staff to the
 * overview or calendar, a wiki reminder to the page that waits for the read confirmation.
 */
export function noticeTarget(message: NoticeMessage, roles: readonly Role[]): string | null {
  const { key, values } = message;
  // A reply: the learner's own questions, open at this one with the reply beside it.
  if (key === NotificationMessageKey.helpReply && values.questionId && mayOpenRoute(roles, "myQuestions")) {
    return `/my-questions?question=${encodeURIComponent(values.questionId)}`;
  }
  const toTraining =
    key === CERTIFICATE_KEY ||
    key === NotificationMessageKey.helpReply ||
    key === NotificationMessageKey.certificateRevoked ||
    key === NotificationMessageKey.calendarReminder;
  if (toTraining && values.topicId && values.trainingId && mayOpenRoute(roles, "topic")) {
    return `/topic/${encodeURIComponent(values.topicId)}/training/${encodeURIComponent(values.trainingId)}`;
  }
  if (key === SUMMARY_KEY && mayOpenRoute(roles, "progress")) return "/progress";
  if (key === NotificationMessageKey.calendarReminder && mayOpenRoute(roles, "calendar")) return "/calendar";
  if (key === NotificationMessageKey.wikiConfirmReminder && values.topic && values.slug) {
    return `/wiki/${encodeURIComponent(values.topic)}/${encodeURIComponent(values.slug)}`;
  }
  return null;
}

/** Certificate notices are coloured like certificates (spec §4); others (help replies, reminders) are not. */
export function noticeColour(
  n: Pick<Notification, "ExpiresAt">,
  message: NoticeMessage,
  zone: string,
  today = new Date(),
) {
  const certificate = message.key === CERTIFICATE_KEY || message.key === SUMMARY_KEY;
  return certificate && n.ExpiresAt ? expiryColour(n.ExpiresAt, today, zone) : null;
}

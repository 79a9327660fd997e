/**
 * A calendar event's Title carries its facility, topic and training (spec §3 'Calendar event').
 * The encoding, defined once here for server, web and integrators:
 *
 *     <facility id>|<topic id>|<training id>|<label>
 *
 * e.g. `3|2|11|Brandschutzunterweisung Frühschicht`. The label is free text (it may be empty,
 * and may itself contain `|`); the three ids are positive whole numbers. Answers also carry the
 * decoded facility, topic and training as fields, so no client needs to parse the Title.
 */
export interface EventTitle {
  facility: number;
  topic: number;
  training: number;
  label: string;
}

export const EVENT_LABEL_MAX = 200;

export function encodeEventTitle(t: EventTitle): string {
  return `${t.facility}|${t.topic}|${t.training}|${t.label}`;
}

/** The decoded Title, or the reason it cannot be read. */
export function decodeEventTitle(title: string): EventTitle | string {
  const parts = title.split("|");
  if (parts.length < 4) return "Title must be '<facility id>|<topic id>|<training id>|<label>'";
  const [f, tp, tr] = parts;
  const ids = [f, tp, tr].map((p) => (/^[1-9]\d{0,9}$/.test(p ?? "") ? Number(p) : Number.NaN));
  if (ids.some((n) => !Number.isSafeInteger(n))) return "Title: facility, topic and training must be ids";
  const label = parts.slice(3).join("|").trim();
  if (label.length > EVENT_LABEL_MAX) return `Title: the label is longer than ${EVENT_LABEL_MAX} characters`;
  return { facility: ids[0] as number, topic: ids[1] as number, training: ids[2] as number, label };
}

/** Longest event (also the longest GET range: about a year). */
export const EVENT_MAX_DAYS = 31;
export const EVENT_RANGE_MAX_DAYS = 370;

/** An all-day event's Start and End are calendar days (End exclusive, as in iCalendar). */
export const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The colours offered for events (or a training's own). */
export const EVENT_COLOURS = ["#0f766e", "#1d4ed8", "#7c3aed", "#be123c", "#b45309", "#15803d"] as const;

/** When reminders go out (ARCHITECTURE decision 7): the day before and on the morning of the event. */
export type ReminderStage = "tomorrow" | "today";
/** Reminders are not sent before this hour of the day, in TIME_ZONE. */
export const REMINDER_HOUR = 6;

/**
 * The training beside an event's label in a reminder (" (Reanimationstraining)"), or nothing when
 * the label is the training's name itself (an event without a label of its own).
 */
export function trainingAside(label: string, training: string): string {
  return training && label.trim() !== training.trim() ? ` (${training})` : "";
}

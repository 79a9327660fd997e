import { type AuditEntry, formatDate, formatTime } from "@carecampus/contract";
import { Badge, Group, Paper, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { settings } from "../../app/settings";
import classes from "./audit.module.css";

/** A value of an entry's data in words: lists joined, nothing as a dash, yes/no for booleans. */
function useValueText() {
  const { t } = useTranslation();
  const text = (value: unknown): string => {
    if (value === null || value === undefined || value === "") return t("audit.nothing");
    if (typeof value === "boolean") return value ? t("audit.yes") : t("audit.no");
    if (Array.isArray(value)) return value.length === 0 ? t("audit.nothing") : value.map(text).join(", ");
    if (typeof value === "object") {
      return Object.entries(value as Record<string, unknown>)
        .map(([k, v]) => `${k}: ${text(v)}`)
        .join("; ");
    }
    return String(value);
  };
  return text;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The lines of what changed: before → after per field, then the entry's other facts. */
function detailLines(
  data: Record<string, unknown>,
  text: (v: unknown) => string,
  change: (f: string, b: string, a: string) => string,
) {
  const lines: string[] = [];
  const pairs = (before: unknown, after: unknown) => {
    if (!isRecord(before) && !isRecord(after)) return;
    const b = isRecord(before) ? before : {};
    const a = isRecord(after) ? after : {};
    for (const field of new Set([...Object.keys(b), ...Object.keys(a)]))
      lines.push(change(field, text(b[field]), text(a[field])));
  };
  const { before, after, personal, ...rest } = data;
  if (isRecord(before) || isRecord(after)) pairs(before, after);
  else if (before !== undefined || after !== undefined) lines.push(change("", text(before), text(after)));
  if (isRecord(personal)) pairs(personal.before, personal.after);
  for (const [key, value] of Object.entries(rest)) lines.push(`${key}: ${text(value)}`);
  return lines;
}

/** One entry in plain words: when, who in which role, what, about whom, where, and what changed. */
export function AuditEntryCard({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const text = useValueText();
  const zone = settings["time-zone"];
  const role = entry.actor.role === "system" ? t("audit.system") : t(`roles.${entry.actor.role}`, entry.actor.role);
  const who =
    entry.actor.id === null ? t("audit.system") : t("audit.by", { name: entry.actor.name ?? t("audit.erased"), role });
  const lines = detailLines(entry.data, text, (field, before, after) =>
    field === "" ? `${before} → ${after}` : t("audit.change", { field, before, after }),
  );
  return (
    <Paper withBorder p="sm" radius="md" component="li" className={classes.entry} data-testid="audit-entry">
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600}>{t(`audit.kind.${entry.kind}`)}</Text>
          <Badge variant="light" size="sm">
            {t("audit.entry", { id: entry.id })}
          </Badge>
        </Group>
        <Text size="sm">
          <time dateTime={entry.at}>
            {formatDate(entry.at, zone)} {formatTime(entry.at, zone)}
          </time>
          {" · "}
          {who}
        </Text>
        <dl className={classes.facts}>
          {entry.subject && (
            <>
              <dt>{t("audit.about")}</dt>
              <dd>{entry.subject.name ?? t("audit.erased")}</dd>
            </>
          )}
          {entry.facility && (
            <>
              <dt>{t("audit.facility")}</dt>
              <dd>{entry.facility.name ?? `#${entry.facility.id}`}</dd>
            </>
          )}
          {lines.length > 0 && (
            <>
              <dt>{t("audit.details")}</dt>
              <dd>
                <ul className={classes.details}>
                  {lines.map((line) => (
                    <li key={line}>{line}</li>
                  ))}
                </ul>
              </dd>
            </>
          )}
        </dl>
      </Stack>
    </Paper>
  );
}

import { type AuditEntry, formatDate, formatTime } from "@carecampus/contract";
import { Badge, Group, Paper, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { settings } from "../../app/settings";
import classes from "./audit.module.css";
import { detailLines } from "./details";

/** One entry in plain words: when, who in which role, what, about whom, where, and what changed. */
export function AuditEntryCard({ entry }: { entry: AuditEntry }) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const role = entry.actor.role === "system" ? t("audit.system") : t(`roles.${entry.actor.role}`, entry.actor.role);
  const who =
    entry.actor.id === null ? t("audit.system") : t("audit.by", { name: entry.actor.name ?? t("audit.erased"), role });
  const lines = detailLines(entry, t, zone);
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
              <dd>{entry.facility.name ?? t("audit.number", { id: entry.facility.id })}</dd>
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

import { formatDate, type OverviewUser, type TopicOverview } from "@carecampus/contract";
import { ActionIcon, Box, Group, Pagination, Stack, Text, TextInput, Tooltip, VisuallyHidden } from "@mantine/core";
import { IconCalendarEvent, IconCircleCheck, IconSearch } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { EXPIRY_COLOURS } from "../../components/ExpiryBadge";
import { scrollRegion } from "../../components/scroll-region";
import classes from "./progress.module.css";
import { useMarkPassive } from "./queries";

type Training = TopicOverview["trainings"][number];
/** Learners per page: a readable table on a laptop, and no frozen browser with 300 or 3 000. */
const PAGE = 25;

/** Stands for the date in a translated sentence, so the words around it can be told apart. */
const MARK = "\u0000";

/** 'erworben am 03.02.2026' with only the date on screen: the words are for screen readers. */
function DateInWords({ text, date }: { text: string; date: string }) {
  const [before = "", after = ""] = text.split(MARK);
  return (
    <span>
      {before.trim() && <VisuallyHidden>{before}</VisuallyHidden>}
      {date}
      {after.trim() && <VisuallyHidden>{after}</VisuallyHidden>}
    </span>
  );
}

interface Pending {
  user: OverviewUser;
  training: Training;
}

/**
 * Matrix mode (spec §2): learners as columns, one row per training, each cell the acquired
 * or expiry date on its status colour; passive trainings get the toggle that marks them passed.
 * The colour always follows the expiry date, so the cells say which date they show: a note
 * above the table, and each cell's text ('acquired on 03.02.2026', the words hidden on screen).
 */
export function MatrixView({ overview, trainings }: { overview: TopicOverview; trainings: Training[] }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState("");
  const [page, setPage] = useState(1);
  const [pending, setPending] = useState<Pending | null>(null);
  const markPassive = useMarkPassive();
  const acquiredMode = settings["show-acquired-at"];
  const day = (iso: string) => formatDate(iso, settings["time-zone"]);
  const needle = filter.trim().toLocaleLowerCase("de");
  const users = needle
    ? overview.users.filter((u) => `${u.name} ${u.surname}`.toLocaleLowerCase("de").includes(needle))
    : overview.users;
  const pages = Math.max(1, Math.ceil(users.length / PAGE));
  const current = Math.min(page, pages);
  const shown = users.slice((current - 1) * PAGE, current * PAGE);

  const confirm = async () => {
    if (!pending) return;
    await markPassive.mutateAsync({
      userId: pending.user.id,
      topicId: overview.topic.id,
      trainingId: pending.training.id,
    });
    showSuccess(t("progress.passiveMarked"));
  };

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder={t("progress.filterNames")}
          aria-label={t("progress.filterNames")}
          value={filter}
          onChange={(e) => {
            setFilter(e.currentTarget.value);
            setPage(1);
          }}
          w={260}
        />
        <Text size="sm" c="dimmed">
          {t("progress.learnerCount", { count: users.length })}
        </Text>
      </Group>
      <Group gap={6} wrap="nowrap" align="flex-start" data-testid="matrix-date-note">
        <IconCalendarEvent size={18} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
        <Text size="sm" id="matrix-date-note">
          {acquiredMode ? t("progress.datesAcquired") : t("progress.datesExpiry")}
        </Text>
      </Group>
      <Box className={classes.matrixScroll} data-testid="progress-matrix" {...scrollRegion(t("progress.modeMatrix"))}>
        <table className={classes.matrix} aria-describedby="matrix-date-note">
          <thead>
            <tr>
              <th className={classes.corner}>{t("progress.training")}</th>
              {shown.map((u) => (
                <th key={u.id} className={classes.userHead} title={u.facility?.name}>
                  <span>
                    {u.surname}, {u.name}
                  </span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {trainings.map((tr) => (
              <tr key={tr.id}>
                <th scope="row" className={classes.rowHead}>
                  {tr.name}
                </th>
                {shown.map((u) => {
                  const cell = u.cells.find((c) => c.training_id === tr.id);
                  if (!cell) {
                    return (
                      <td key={u.id} className={classes.unassigned} title={t("progress.notAssigned")}>
                        –
                      </td>
                    );
                  }
                  const date = acquiredMode ? cell.acquired_at : cell.expires_at;
                  // What the cell says, as words: the date with what it is, and the status of its colour.
                  const dateText = date
                    ? t(acquiredMode ? "progress.acquiredOn" : "progress.validUntil", { date: day(date) })
                    : t("progress.noCertificate");
                  const expiry =
                    acquiredMode && cell.expires_at
                      ? ` · ${t("progress.validUntil", { date: day(cell.expires_at) })}`
                      : "";
                  const label = `${u.name} ${u.surname}, ${tr.name}: ${dateText}${expiry} – ${t(`expiry.${cell.colour}`)}`;
                  return (
                    <td
                      key={u.id}
                      className={classes.cell}
                      data-colour={cell.colour}
                      style={{
                        background: `var(--mantine-color-${EXPIRY_COLOURS[cell.colour]}-${cell.colour === "yellow" ? 2 : 1})`,
                      }}
                      title={label}
                      data-testid="matrix-cell"
                    >
                      <Group gap={4} justify="center" wrap="nowrap">
                        {date ? (
                          <DateInWords
                            text={t(acquiredMode ? "progress.acquiredOn" : "progress.validUntil", { date: MARK })}
                            date={day(date)}
                          />
                        ) : (
                          <span>
                            <span aria-hidden>—</span>
                            <VisuallyHidden>{t("progress.noCertificate")}</VisuallyHidden>
                          </span>
                        )}
                        {tr.passive && (
                          <Tooltip label={t("progress.markPassive")}>
                            <ActionIcon
                              size="sm"
                              variant="subtle"
                              color="dark"
                              aria-label={`${t("progress.markPassive")}: ${u.name} ${u.surname}`}
                              onClick={() => setPending({ user: u, training: tr })}
                            >
                              <IconCircleCheck size={16} />
                            </ActionIcon>
                          </Tooltip>
                        )}
                      </Group>
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </Box>
      {pages > 1 && <Pagination total={pages} value={current} onChange={setPage} size="sm" />}
      <ConfirmDialog
        opened={pending !== null}
        title={t("progress.markPassive")}
        message={
          pending
            ? t("progress.markPassiveConfirm", {
                name: `${pending.user.name} ${pending.user.surname}`,
                training: pending.training.name,
              })
            : ""
        }
        confirmLabel={t("progress.markPassiveButton")}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      />
    </Stack>
  );
}

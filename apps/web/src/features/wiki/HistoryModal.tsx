import { api, formatDate, formatTime, type WikiPage } from "@carecampus/contract";
import { Alert, Badge, Button, Checkbox, Group, Modal, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { IconArrowLeft, IconArrowsDiff, IconEye, IconRestore } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, call, showError, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { DiffView } from "./DiffView";
import { refreshWiki, useWikiDiff, useWikiRevision, useWikiRevisions } from "./queries";
import { WikiHtml } from "./WikiHtml";
import classes from "./wiki.module.css";

type View = { kind: "list" } | { kind: "diff"; from: number; to: number } | { kind: "show"; number: number };

/** Editors: every revision of a page; two picked show what changed; an earlier one can be made the newest again. */
export function HistoryModal({
  page,
  opened,
  onClose,
  onRestored,
}: {
  page: WikiPage;
  opened: boolean;
  onClose: () => void;
  onRestored: (page: WikiPage) => void;
}) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const phone = useMediaQuery("(max-width: 48em)");
  const queryClient = useQueryClient();
  const revisions = useWikiRevisions(page.id, opened);
  const [picked, setPicked] = useState<number[]>([]);
  const [view, setView] = useState<View>({ kind: "list" });
  const [restoring, setRestoring] = useState<number | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const diff = useWikiDiff(page.id, view.kind === "diff" ? { from: view.from, to: view.to } : null, page.lang);
  const shown = useWikiRevision(page.id, view.kind === "show" ? view.number : null, page.lang);
  const list = revisions.data ?? [];
  const newest = list[0]?.number ?? 0;

  // Two newest picked at first: the usual question is 'what changed last?'.
  useEffect(() => {
    if (revisions.data && picked.length === 0) setPicked(revisions.data.slice(0, 2).map((r) => r.number));
  }, [revisions.data, picked.length]);

  // A new view: reading starts at its heading.
  useEffect(() => {
    if (view.kind !== "list") heading.current?.focus();
  }, [view]);

  const toggle = (n: number, checked: boolean) =>
    setPicked((p) => (checked ? [...p.filter((x) => x !== n), n].slice(-2) : p.filter((x) => x !== n)));
  const compare = () => {
    const [a = 0, b = 0] = [...picked].sort((x, y) => x - y);
    setView({ kind: "diff", from: a, to: b });
  };

  const restore = async (revision: number) => {
    try {
      const next = await call(api.wikiRestore, {
        params: { id: page.id },
        body: { version: page.version, revision },
        silent: true,
      });
      showSuccess(t("wiki.history.restored", { revision, number: next.latest }));
      await refreshWiki(queryClient);
      onRestored(next);
      setView({ kind: "list" });
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) showError(new ApiError(409, null));
      showError(err);
      throw err;
    }
  };

  const back = (
    <Button variant="subtle" leftSection={<IconArrowLeft size={16} />} onClick={() => setView({ kind: "list" })} px={4}>
      {t("wiki.history.back")}
    </Button>
  );

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t("wiki.history.title", { title: page.title })}
      size="xl"
      fullScreen={phone}
      data-testid="wiki-history"
    >
      {view.kind === "diff" ? (
        <Stack gap="sm">
          {back}
          <Title order={2} size="h4" ref={heading} tabIndex={-1} className={classes.focusTarget}>
            {t("wiki.history.diffTitle", { from: view.from, to: view.to })}
          </Title>
          {diff.isPending ? <Skeleton h={200} /> : diff.data ? <DiffView diff={diff.data} /> : null}
        </Stack>
      ) : view.kind === "show" ? (
        <Stack gap="sm">
          {back}
          <Title order={2} size="h4" ref={heading} tabIndex={-1} className={classes.focusTarget}>
            {t("wiki.history.revisionTitle", { number: view.number })}
          </Title>
          {shown.isPending ? (
            <Skeleton h={200} />
          ) : shown.data ? (
            <Paper withBorder p="md">
              <Title order={3} size="h3" mb="sm">
                {shown.data.title}
              </Title>
              <WikiHtml html={shown.data.html} testId="wiki-revision-html" />
            </Paper>
          ) : null}
        </Stack>
      ) : revisions.isPending ? (
        <Skeleton h={240} />
      ) : (
        <Stack gap="sm">
          <Text size="sm">{t("wiki.history.pickTwo")}</Text>
          <Group>
            <Button leftSection={<IconArrowsDiff size={18} />} onClick={compare} disabled={picked.length !== 2}>
              {t("wiki.history.compare")}
            </Button>
          </Group>
          <Stack
            gap="xs"
            component="ol"
            style={{ listStyle: "none", padding: 0, margin: 0 }}
            data-testid="wiki-revisions"
          >
            {list.map((r) => (
              <Paper key={r.number} withBorder p="sm" component="li" data-testid="wiki-revision" data-number={r.number}>
                <Group justify="space-between" align="flex-start" gap="xs">
                  <Stack gap={2} style={{ minWidth: 0, flex: "1 1 220px" }}>
                    <Group gap="xs">
                      <Checkbox
                        checked={picked.includes(r.number)}
                        onChange={(e) => toggle(r.number, e.currentTarget.checked)}
                        label={<Text fw={700}>{t("wiki.history.revision", { number: r.number })}</Text>}
                      />
                      {r.released && (
                        <Badge color="teal.9" variant="filled" size="sm" style={{ textTransform: "none" }}>
                          {t("wiki.history.released")}
                        </Badge>
                      )}
                    </Group>
                    <Text size="sm" c="dimmed">
                      {t("wiki.history.by", {
                        name: r.author || t("wiki.history.package"),
                        date: `${formatDate(r.at, zone)} ${formatTime(r.at, zone)}`,
                      })}
                    </Text>
                    {r.summary && <Text size="sm">{r.summary}</Text>}
                  </Stack>
                  <Group gap={4}>
                    <Button
                      variant="subtle"
                      size="compact-sm"
                      leftSection={<IconEye size={16} />}
                      onClick={() => setView({ kind: "show", number: r.number })}
                      aria-label={t("wiki.history.showNumber", { number: r.number })}
                    >
                      {t("wiki.history.show")}
                    </Button>
                    {r.number !== newest && (
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        leftSection={<IconRestore size={16} />}
                        onClick={() => setRestoring(r.number)}
                        aria-label={t("wiki.history.restoreNumber", { number: r.number })}
                      >
                        {t("wiki.history.restore")}
                      </Button>
                    )}
                  </Group>
                </Group>
              </Paper>
            ))}
          </Stack>
          {list.length === 0 && (
            <Alert color="gray" variant="light">
              {t("wiki.history.none")}
            </Alert>
          )}
        </Stack>
      )}
      <ConfirmDialog
        opened={restoring !== null}
        title={t("wiki.history.restoreTitle", { number: restoring ?? 0 })}
        message={t("wiki.history.restoreText", { number: restoring ?? 0 })}
        confirmLabel={t("wiki.history.restore")}
        onConfirm={() => restore(restoring ?? 0)}
        onClose={() => setRestoring(null)}
      />
    </Modal>
  );
}

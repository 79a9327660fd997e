import { api, CONTENT_LANGUAGE_PATTERN, formatDate, seesAllFacilities, type WikiPage } from "@carecampus/contract";
import { Alert, Anchor, Badge, Breadcrumbs, Button, Group, Paper, Select, Skeleton, Stack, Text } from "@mantine/core";
import { IconEye, IconHistory, IconPencil, IconPrinter, IconRocket, IconTrash } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams, useSearchParams } from "react-router";
import { ApiError, call, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { ContentName, inLanguage, useReadingLanguage } from "../../components/ContentName";
import { expiryBadgeProps } from "../../components/ExpiryBadge";
import { useFacilityParam } from "../../components/FacilityScope";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { useFacilities } from "../../queries/admin";
import { useRequiredSession } from "../../session/store";
import { ConfirmationsPanel } from "./ConfirmationsPanel";
import { HistoryModal } from "./HistoryModal";
import { wikiLanguageName } from "./languages";
import { refreshWiki, useWikiPage, wikiKeys } from "./queries";
import { ReadConfirmation } from "./ReadConfirmation";
import { wikiPath } from "./scope";
import { WikiHtml } from "./WikiHtml";
import classes from "./wiki.module.css";

// Admin mode's editor (TipTap) loads only when it opens: learners never download it.
const WikiEditor = lazy(() => import("./editor/WikiEditor"));

/** /wiki/{topic}/{page}, keyed by the address: another page starts with fresh state (dialogs, editor). */
export default function WikiPageRoute() {
  const { topic, subtopic } = useParams();
  return <WikiPageScreen key={`${topic}/${subtopic}`} />;
}

/** One page, its read confirmation, and for editors admin mode. */
function WikiPageScreen() {
  const { t, i18n } = useTranslation();
  const zone = settings["time-zone"];
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user } = useRequiredSession();
  const params = useParams();
  const topic = params.topic ?? "";
  const slug = params.subtopic ?? "";
  const [search, setSearch] = useSearchParams();
  const [facility] = useFacilityParam();
  // A language code in the address; else the language the reader takes trainings in, else the interface's.
  const asked = search.get("lang");
  const askedLang = asked && CONTENT_LANGUAGE_PATTERN.test(asked) ? asked : null;
  const reading = useReadingLanguage();
  const lang = askedLang ?? reading;
  const draft = search.get("draft") === "true";
  const editing = search.get("edit") === "1";
  const address = { topic, slug, lang, draft, facility };
  const query = useWikiPage(address);
  const page = query.data;
  const heading = useRef<HTMLHeadingElement>(null);
  const [dialog, setDialog] = useState<"history" | "release" | "retire" | null>(null);
  const facilities = useFacilities(seesAllFacilities(user.roles) && page?.facility_id != null);

  // A new page, revision or language: reading starts at the title.
  const shownKey = page ? `${page.id}-${page.revision.number}-${page.lang}-${editing}` : "";
  // biome-ignore lint/correctness/useExhaustiveDependencies: focus follows what is shown, not the object
  useEffect(() => {
    if (shownKey && !editing) heading.current?.focus();
  }, [shownKey]);

  const setParams = (change: Record<string, string | null>) =>
    setSearch((p) => {
      for (const [k, v] of Object.entries(change)) {
        if (v === null) p.delete(k);
        else p.set(k, v);
      }
      return p;
    });

  /** A page the server just answered with (confirm, save, release, restore): shown at once. */
  const show = (next: WikiPage, asDraft: boolean) => {
    queryClient.setQueryData(wikiKeys.page(topic, slug, next.lang, asDraft, facility), next);
  };

  if (query.isPending) return <Skeleton h={400} />;
  if (!page) {
    const err = query.error;
    if (err instanceof ApiError && (err.status === 404 || err.status === 403)) return <NotFoundPage />;
    return (
      <Alert color="red" variant="light" role="alert">
        {t("wiki.loadFailed")}
      </Alert>
    );
  }

  const released = page.released;
  const showingDraft = !released || page.revision.number !== released.number;
  const newerDraft = page.can_edit && released !== null && page.latest > released.number;
  const facilityName =
    page.facility_id === null
      ? t("wiki.print.allFacilities")
      : user.facility?.id === page.facility_id
        ? user.facility.name
        : (facilities.data?.find((f) => f.id === page.facility_id)?.name ?? "");

  const release = async () => {
    const next = await call(api.wikiPageRelease, { params: { id: page.id }, body: { version: page.version } });
    showSuccess(t("wiki.admin.releasedToast", { number: next.released?.number ?? next.revision.number }));
    show(next, false);
    await refreshWiki(queryClient);
    setParams({ draft: null });
  };

  const retire = async () => {
    await call(api.wikiPageDelete, { params: { id: page.id } });
    showSuccess(t("success.wikiChanged"));
    await refreshWiki(queryClient);
    navigate(wikiPath(facility, page.topic.key));
  };

  return (
    <div data-wiki-print data-testid="wiki-page" data-page-id={page.id}>
      <div className={classes.header}>
        <PageHeader title={<ContentName name={page.title} lang={page.lang} />} headingRef={heading} />
      </div>
      <Stack gap="md">
        <Breadcrumbs separator="›" className={classes.noPrint} aria-label={t("wiki.breadcrumbs")}>
          <Anchor component={Link} to={wikiPath(facility)} size="sm">
            {t("wiki.title")}
          </Anchor>
          <Anchor component={Link} to={wikiPath(facility, page.topic.key)} size="sm">
            {page.topic.title}
          </Anchor>
        </Breadcrumbs>

        <Group gap="xs" data-testid="wiki-meta" className={classes.noPrint}>
          <Badge variant="default" size="lg" style={{ textTransform: "none" }} data-testid="wiki-revision-number">
            {t("wiki.meta.revision", { number: page.revision.number })}
          </Badge>
          {showingDraft && (
            <Badge {...expiryBadgeProps("orange")} size="lg" style={{ textTransform: "none" }} data-testid="wiki-draft">
              {t("wiki.meta.draft")}
            </Badge>
          )}
          <Text size="sm" c="dimmed">
            {released
              ? t(released.by ? "wiki.meta.released" : "wiki.meta.releasedPackage", {
                  number: released.number,
                  date: formatDate(released.at, zone),
                  by: released.by,
                })
              : t("wiki.meta.neverReleased")}
          </Text>
        </Group>

        <div className={classes.printOnly} data-testid="wiki-print-meta">
          <Text size="sm">
            {t("wiki.print.facility", { facility: facilityName })} ·{" "}
            {t("wiki.meta.revision", { number: page.revision.number })} ·{" "}
            {released
              ? t(released.by ? "wiki.print.released" : "wiki.print.releasedPackage", {
                  date: formatDate(released.at, zone),
                  by: released.by,
                })
              : t("wiki.meta.neverReleased")}{" "}
            · {t("wiki.print.printed", { date: formatDate(new Date(), zone) })}
          </Text>
        </div>

        <Group gap="sm" className={classes.noPrint} justify="space-between" align="flex-end">
          {page.languages.length > 1 ? (
            <Select
              size="xs"
              label={t("wiki.language")}
              value={page.lang}
              onChange={(v) => v && setParams({ lang: v })}
              data={page.languages.map((l) => ({ value: l, label: wikiLanguageName(t, l, i18n.language) }))}
              allowDeselect={false}
              w={220}
              data-testid="wiki-languages"
            />
          ) : (
            <span />
          )}
          <Button variant="default" size="xs" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
            {t("wiki.print.button")}
          </Button>
        </Group>

        {page.lang !== "de" && page.languages.includes("de") && (
          // A translation is shown: the German version is binding (issue 31), on paper too.
          <Group gap="xs" data-testid="wiki-translation-note">
            <Text size="sm">
              {t("wiki.translationNote", { language: wikiLanguageName(t, page.lang, i18n.language) })}
            </Text>
            <Button
              variant="subtle"
              size="compact-sm"
              className={classes.noPrint}
              onClick={() => setParams({ lang: "de" })}
            >
              {t("wiki.showGerman")}
            </Button>
          </Group>
        )}

        {page.lang !== lang && (
          <Alert color="gray" variant="light" className={classes.noPrint} data-testid="wiki-language-note">
            {page.fallback
              ? t(`wiki.fallback.${page.fallback}`, { language: wikiLanguageName(t, lang, i18n.language) })
              : t("wiki.notInLanguage", { language: wikiLanguageName(t, lang, i18n.language) })}
          </Alert>
        )}

        {page.can_edit && !editing && (
          <Paper
            withBorder
            p="sm"
            className={classes.noPrint}
            component="section"
            aria-label={t("wiki.admin.label")}
            data-testid="wiki-admin"
          >
            <Group gap="xs">
              <Button leftSection={<IconPencil size={18} />} onClick={() => setParams({ edit: "1" })}>
                {t("wiki.admin.edit")}
              </Button>
              <Button variant="default" leftSection={<IconHistory size={18} />} onClick={() => setDialog("history")}>
                {t("wiki.admin.history")}
              </Button>
              {(newerDraft || !released) && (
                <Button variant="default" leftSection={<IconRocket size={18} />} onClick={() => setDialog("release")}>
                  {t("wiki.admin.release", { number: page.latest })}
                </Button>
              )}
              {newerDraft && (
                <Button
                  variant="default"
                  leftSection={<IconEye size={18} />}
                  onClick={() => setParams({ draft: draft ? null : "true" })}
                >
                  {draft ? t("wiki.admin.showReleased") : t("wiki.admin.showDraft", { number: page.latest })}
                </Button>
              )}
              <Button
                variant="default"
                leftSection={<IconTrash size={18} color="var(--mantine-color-red-filled)" />}
                onClick={() => setDialog("retire")}
              >
                {t("wiki.admin.retire")}
              </Button>
            </Group>
            {newerDraft && !draft && (
              <Text size="sm" mt="xs" data-testid="wiki-newer-draft">
                {t("wiki.admin.newerDraft", { number: page.latest })}
              </Text>
            )}
          </Paper>
        )}

        {editing && page.can_edit ? (
          <Suspense fallback={<Skeleton h={420} />}>
            <WikiEditor
              page={page}
              facility={facility}
              lang={askedLang ?? undefined}
              onCancel={() => setParams({ edit: null })}
              onSaved={(saved) => {
                show(saved, true);
                void refreshWiki(queryClient);
                setParams({ edit: null, draft: "true", lang: saved.lang });
              }}
            />
          </Suspense>
        ) : (
          <>
            <Paper withBorder p={{ base: "sm", sm: "lg" }} component="article" {...inLanguage(page.lang)}>
              {page.html.trim() === "" ? (
                <Text c="dimmed">{t("wiki.emptyPage")}</Text>
              ) : (
                <WikiHtml html={page.html} testId="wiki-html" />
              )}
            </Paper>
            {/* After the text, as the wiki's home says: one confirms what one has read. */}
            {!showingDraft && <ReadConfirmation page={page} onConfirmed={(next) => show(next, draft)} />}
            {page.can_see_confirmations && page.requires_confirmation && released && (
              <ConfirmationsPanel page={page} facility={facility} />
            )}
          </>
        )}
      </Stack>

      {page.can_edit && (
        <>
          <HistoryModal
            page={page}
            opened={dialog === "history"}
            onClose={() => setDialog(null)}
            onRestored={(next) => {
              show(next, true);
              setDialog(null);
              setParams({ draft: "true" });
            }}
          />
          <ConfirmDialog
            opened={dialog === "release"}
            title={t("wiki.admin.releaseTitle", { number: page.latest })}
            message={
              page.requires_confirmation
                ? `${t("wiki.admin.releaseText")} ${t("wiki.admin.releaseConfirmAgain")}`
                : t("wiki.admin.releaseText")
            }
            confirmLabel={t("wiki.admin.releaseConfirm")}
            onConfirm={release}
            onClose={() => setDialog(null)}
          />
          <ConfirmDialog
            opened={dialog === "retire"}
            title={t("wiki.admin.retireTitle")}
            message={t("wiki.admin.retireText", { title: page.title })}
            confirmLabel={t("wiki.admin.retire")}
            danger
            onConfirm={retire}
            onClose={() => setDialog(null)}
          />
        </>
      )}
    </div>
  );
}

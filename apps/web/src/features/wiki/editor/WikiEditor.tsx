import {
  api,
  ErrorCode,
  SOURCE_LANGUAGE,
  type TranslationStatus,
  WIKI_SUMMARY_MAX,
  WIKI_TITLE_MAX,
  type WikiPage,
} from "@carecampus/contract";
import {
  Alert,
  Anchor,
  Button,
  Code,
  Collapse,
  Flex,
  Group,
  Paper,
  ScrollArea,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconAlertTriangle, IconExternalLink } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { EditorContent, useEditor } from "@tiptap/react";
import { useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, authedHref, call, showError, showSuccess } from "../../../api/client";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { inLanguage } from "../../../components/ContentName";
import safe from "../../../components/SafeHtml.module.css";
import { TranslationStatusControl } from "../../../components/TranslationStatus";
import { useWikiLanguages, wikiLanguageName } from "../languages";
import { fetchWikiPage } from "../queries";
import { wikiPath } from "../scope";
import { WikiHtml } from "../WikiHtml";
import wiki from "../wiki.module.css";
import classes from "./editor.module.css";
import { demoteTopHeadings, wikiExtensions } from "./extensions";
import { ImageDialog, LinkDialog } from "./InsertDialogs";
import { Toolbar } from "./Toolbar";

export interface WikiEditorProps {
  page: WikiPage;
  facility: number | null;
  /** The language to edit first (the address's); else the one the page shows. */
  lang?: string;
  onCancel: () => void;
  onSaved: (page: WikiPage) => void;
}

interface Loaded {
  version: number;
  lang: string;
  /** The page had no text in `lang` yet: the German one is offered as a start. */
  newTranslation: boolean;
  /** A translation (issue 31): its status and whether the German changed since; null for German. */
  translation: { status: TranslationStatus; outdated: boolean } | null;
  /** A translation's German original, shown beside the editor (binding, read only). */
  german: { title: string; html: string } | null;
  /** The languages the newest revision has. */
  languages: string[];
}

/**
 * Admin mode's editor (lazy: learners never load it): Markdown in and out through TipTap, a
 * toolbar for what a handbook page needs, title, summary, read confirmation and language.
 * A save that meets a newer version keeps the text and offers to look at the other or save over it.
 */
export default function WikiEditor({ page, facility, lang: asked, onCancel, onSaved }: WikiEditorProps) {
  const { t, i18n } = useTranslation();
  const labelId = useId();
  const contentId = useId();
  const heading = useRef<HTMLHeadingElement>(null);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const languages = useWikiLanguages();
  const form = useForm({
    mode: "controlled",
    initialValues: {
      title: page.title,
      summary: "",
      requiresConfirmation: page.requires_confirmation,
      status: "draft" as TranslationStatus,
    },
    validate: { title: (title) => (title.trim() === "" ? t("wiki.editor.titleRequired") : null) },
    validateInputOnChange: ["title"],
    onValuesChange: (values, previous) => {
      // The summary describes the save; it alone leaves nothing to lose.
      if (
        values.title !== previous.title ||
        values.requiresConfirmation !== previous.requiresConfirmation ||
        values.status !== previous.status
      ) {
        setDirty(true);
      }
    },
  });
  /** Something would be lost by leaving: the text, the title or the read confirmation changed. */
  const [dirty, setDirty] = useState(false);
  const [conflict, setConflict] = useState<WikiPage | null | "loading">(null);
  const [showTheirs, setShowTheirs] = useState(false);
  const [leaving, setLeaving] = useState(false);
  const [dialog, setDialog] = useState<"link" | "image" | null>(null);
  const [ready, setReady] = useState(false);

  const editor = useEditor({
    extensions: wikiExtensions({
      calloutLabels: {
        note: t("wiki.callout.note"),
        tip: t("wiki.callout.tip"),
        important: t("wiki.callout.important"),
        warning: t("wiki.callout.warning"),
        caution: t("wiki.callout.caution"),
      },
      imageUrl: authedHref,
    }),
    editorProps: {
      attributes: {
        id: contentId,
        role: "textbox",
        "aria-multiline": "true",
        "aria-labelledby": labelId,
        class: `${safe.html} ${wiki.content} ${classes.prose}`,
        "data-testid": "wiki-editor-content",
      },
    },
    // Not editable until the revision has loaded (load below): what is typed before would be
    // replaced by it (on a slow phone a new page's first words were lost).
    editable: false,
    onUpdate: () => setDirty(true),
    // Commands need the mounted view: the first text is set once the editor reports it exists.
    onCreate: () => setReady(true),
  });

  /** The newest revision in `lang` (the server answers German where the page lacks it). */
  const load = async (lang: string) => {
    editor?.setEditable(false, false);
    const newest = await fetchWikiPage({ topic: page.topic.key, slug: page.slug, lang, draft: true, facility });
    const newTranslation = newest.lang !== lang;
    const written = newest.translations.find((x) => x.lang === lang);
    const translation =
      lang === SOURCE_LANGUAGE ? null : { status: written?.status ?? "draft", outdated: written?.outdated ?? false };
    const original =
      lang === SOURCE_LANGUAGE
        ? null
        : newTranslation
          ? newest
          : await fetchWikiPage({
              topic: page.topic.key,
              slug: page.slug,
              lang: SOURCE_LANGUAGE,
              draft: true,
              facility,
            });
    const german =
      original && original.lang === SOURCE_LANGUAGE ? { title: original.title, html: original.html } : null;
    setLoaded({ version: newest.version, lang, newTranslation, translation, german, languages: newest.languages });
    form.setValues({
      title: newest.title,
      requiresConfirmation: newest.requires_confirmation,
      status: translation?.status ?? "draft",
    });
    editor?.commands.setContent(demoteTopHeadings(newest.markdown ?? ""), {
      contentType: "markdown",
      emitUpdate: false,
    });
    editor?.setEditable(true, false);
    setDirty(false);
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: loads once, when the editor exists
  useEffect(() => {
    if (!editor || !ready) return;
    load(asked ?? page.lang).then(
      () => heading.current?.focus(),
      (err) => {
        if (!(err instanceof ApiError)) console.error(err);
        showError(err);
        onCancel();
      },
    );
  }, [editor, ready]);

  const save = useMutation({
    mutationFn: ({ version, lang }: { version: number; lang: string }) => {
      const v = form.getValues();
      return call(api.wikiPageSave, {
        params: { id: page.id },
        body: {
          version,
          lang,
          title: v.title.trim(),
          markdown: editor?.getMarkdown() ?? "",
          requires_confirmation: v.requiresConfirmation,
          summary: v.summary.trim() || undefined,
          ...(lang !== SOURCE_LANGUAGE && { status: v.status }),
        },
        silent: true,
      });
    },
    onSuccess: (saved) => {
      setConflict(null);
      setDirty(false);
      showSuccess(t("success.wikiChanged"));
      onSaved(saved);
    },
    onError: (err, { lang }) => {
      if (err instanceof ApiError && err.status === 409 && (err.code ?? ErrorCode.conflict) === ErrorCode.conflict) {
        // Someone saved since we loaded: nothing is lost, the text stays here.
        setShowTheirs(false);
        setConflict("loading");
        fetchWikiPage({ topic: page.topic.key, slug: page.slug, lang, draft: true, facility }).then(
          (theirs) => setConflict(theirs),
          () => setConflict(null),
        );
      } else showError(err);
    },
  });
  const busy = save.isPending;

  const switchLanguage = async (lang: string) => {
    try {
      await load(lang);
    } catch (err) {
      showError(err);
    }
  };

  const theirs = conflict && conflict !== "loading" ? conflict : null;
  const canSave = !!editor && !!loaded && form.isValid() && !busy;

  return (
    <Paper
      withBorder
      p={{ base: "sm", sm: "lg" }}
      component="section"
      aria-labelledby={`${labelId}-h`}
      data-testid="wiki-editor"
    >
      <Stack gap="md">
        <Title order={2} size="h3" id={`${labelId}-h`} ref={heading} tabIndex={-1} className={wiki.focusTarget}>
          {t("wiki.editor.title")}
        </Title>
        {!loaded ? (
          <Skeleton h={320} />
        ) : (
          <>
            <Flex gap="sm" direction={{ base: "column", sm: "row" }}>
              <TextInput
                label={t("wiki.editor.pageTitle")}
                {...form.getInputProps("title")}
                maxLength={WIKI_TITLE_MAX}
                required
                style={{ flex: 1 }}
                {...inLanguage(loaded.lang)}
              />
              {languages.length > 1 && (
                <Select
                  label={t("wiki.editor.language")}
                  data={languages.map((l) => ({
                    value: l,
                    label: loaded.languages.includes(l)
                      ? wikiLanguageName(t, l, i18n.language)
                      : t("wiki.editor.newLanguage", { language: wikiLanguageName(t, l, i18n.language) }),
                  }))}
                  value={loaded.lang}
                  onChange={(v) => v && v !== loaded.lang && void switchLanguage(v)}
                  allowDeselect={false}
                  disabled={dirty}
                  description={dirty ? t("wiki.editor.languageLocked") : undefined}
                  w={{ base: "100%", sm: 220 }}
                />
              )}
            </Flex>
            {loaded.newTranslation && (
              <Alert color="blue" variant="light" data-testid="wiki-new-translation">
                {t("wiki.editor.newTranslation", { language: wikiLanguageName(t, loaded.lang, i18n.language) })}
              </Alert>
            )}
            {loaded.translation?.outdated && (
              <Alert
                color="orange"
                variant="light"
                icon={<IconAlertTriangle />}
                data-testid="wiki-translation-outdated"
              >
                {t("wiki.editor.outdated")}
              </Alert>
            )}
          </>
        )}
        {/* A translation: the German original beside it (below it on a phone), binding and read only. */}
        <SimpleGrid cols={{ base: 1, md: loaded?.german ? 2 : 1 }} spacing="md" hidden={!loaded}>
          {loaded?.german && (
            <Paper
              withBorder
              p="sm"
              component="section"
              aria-labelledby={`${labelId}-original`}
              lang="de"
              data-testid="wiki-translation-original"
            >
              <Text id={`${labelId}-original`} fw={600} size="sm" mb={4} lang={i18n.language}>
                {t("wiki.editor.original")}
              </Text>
              <Text fw={700} mb="xs">
                {loaded.german.title}
              </Text>
              <ScrollArea.Autosize mah={480} type="auto">
                <WikiHtml html={loaded.german.html} />
              </ScrollArea.Autosize>
            </Paper>
          )}
          <div>
            {/* The editable area is no form field: it takes its name from this text (aria-labelledby). */}
            <Text id={labelId} fw={500} size="sm" mb={4} onClick={() => editor?.commands.focus()}>
              {t("wiki.editor.content")}
            </Text>
            <div className={classes.frame}>
              {editor && (
                <Toolbar
                  editor={editor}
                  controls={contentId}
                  onLink={() => setDialog("link")}
                  onImage={() => setDialog("image")}
                />
              )}
              <div {...(loaded && inLanguage(loaded.lang))}>
                <EditorContent editor={editor} />
              </div>
            </div>
          </div>
        </SimpleGrid>
        {loaded?.translation && (
          <TranslationStatusControl
            value={form.getValues().status}
            onChange={(s) => form.setFieldValue("status", s)}
            label={t("wiki.editor.translationStatus")}
            help={t("wiki.editor.statusHelp")}
          />
        )}
        {loaded && (
          <>
            <TextInput
              label={t("wiki.editor.summary")}
              description={t("wiki.editor.summaryHelp")}
              {...form.getInputProps("summary")}
              maxLength={WIKI_SUMMARY_MAX}
            />
            <Switch
              label={t("wiki.editor.requiresConfirmation")}
              description={t("wiki.editor.requiresConfirmationHelp")}
              {...form.getInputProps("requiresConfirmation", { type: "checkbox" })}
            />
          </>
        )}
        {conflict && (
          <Alert
            color="orange"
            variant="light"
            icon={<IconAlertTriangle />}
            title={t("wiki.editor.conflictTitle")}
            role="alert"
            data-testid="wiki-conflict"
          >
            <Stack gap="xs">
              <Text size="sm">
                {theirs
                  ? t("wiki.editor.conflictText", { number: theirs.revision.number, by: theirs.revision.author || "–" })
                  : t("wiki.editor.conflictTextShort")}
              </Text>
              <Group gap="sm">
                <Anchor
                  href={wikiPath(facility, page.topic.key, page.slug, {
                    draft: "true",
                    lang: loaded?.lang ?? page.lang,
                  })}
                  target="_blank"
                  rel="noopener"
                  size="sm"
                  display="inline-flex"
                  style={{ alignItems: "center", gap: 4 }}
                >
                  {t("wiki.editor.conflictOpen")} <IconExternalLink size={14} aria-hidden />
                </Anchor>
                {theirs?.markdown != null && (
                  <Button
                    variant="subtle"
                    size="compact-sm"
                    onClick={() => setShowTheirs((s) => !s)}
                    aria-expanded={showTheirs}
                  >
                    {showTheirs ? t("wiki.editor.conflictHideText") : t("wiki.editor.conflictShowText")}
                  </Button>
                )}
              </Group>
              <Collapse expanded={showTheirs}>
                <ScrollArea.Autosize mah={240} type="auto">
                  <Code block data-testid="wiki-conflict-text">
                    {theirs?.markdown ?? ""}
                  </Code>
                </ScrollArea.Autosize>
              </Collapse>
              <Group>
                <Button
                  onClick={() => theirs && loaded && save.mutate({ version: theirs.version, lang: loaded.lang })}
                  disabled={!theirs || !canSave}
                  loading={busy}
                >
                  {t("wiki.editor.conflictOverwrite")}
                </Button>
              </Group>
            </Stack>
          </Alert>
        )}
        <Flex gap="sm" justify="flex-end" direction={{ base: "column-reverse", xs: "row" }}>
          <Button variant="default" onClick={() => (dirty ? setLeaving(true) : onCancel())} disabled={busy}>
            {t("common.cancel")}
          </Button>
          <Button
            onClick={() => loaded && save.mutate({ version: loaded.version, lang: loaded.lang })}
            loading={busy && !conflict}
            disabled={!canSave || !!conflict}
          >
            {t("wiki.editor.save")}
          </Button>
        </Flex>
      </Stack>
      {editor && dialog === "link" && <LinkDialog editor={editor} onClose={() => setDialog(null)} />}
      {editor && dialog === "image" && (
        <ImageDialog editor={editor} facility={facility} onClose={() => setDialog(null)} />
      )}
      <ConfirmDialog
        opened={leaving}
        title={t("wiki.editor.discardTitle")}
        message={t("wiki.editor.discardText")}
        confirmLabel={t("wiki.editor.discard")}
        danger
        onConfirm={async () => onCancel()}
        onClose={() => setLeaving(false)}
      />
    </Paper>
  );
}

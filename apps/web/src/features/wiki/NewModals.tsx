import { api, WIKI_SLUG, WIKI_TITLE_MAX, type WikiTree } from "@carecampus/contract";
import { Button, Group, Modal, SegmentedControl, Select, Stack, Switch, Text, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { ApiError, call, showError, showSuccess } from "../../api/client";
import { configuredLanguages } from "../../i18n";
import { useWikiLanguages, wikiLanguageName } from "./languages";
import { refreshWiki } from "./queries";
import { slugify, wikiPath } from "./scope";

export type Scope = "common" | "facility";

/** The scopes the caller may write in: common pages, the facility's, or both. */
export function writableScopes(tree: WikiTree): Scope[] {
  const scopes: Scope[] = [];
  if (tree.can_edit_common) scopes.push("common");
  if (tree.can_edit_facility && tree.facility_id !== null) scopes.push("facility");
  return scopes;
}

function ScopeChoice({ scopes, value, onChange }: { scopes: Scope[]; value: Scope; onChange: (s: Scope) => void }) {
  const { t } = useTranslation();
  if (scopes.length < 2) {
    return (
      <Text size="sm" c="dimmed">
        {t(`wiki.scope.${value}Only`)}
      </Text>
    );
  }
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500} id="wiki-scope-label">
        {t("wiki.scope.label")}
      </Text>
      <SegmentedControl
        value={value}
        onChange={(v) => onChange(v as Scope)}
        data={scopes.map((s) => ({ value: s, label: t(`wiki.scope.${s}`) }))}
        aria-labelledby="wiki-scope-label"
        fullWidth
      />
    </Stack>
  );
}

/** What a new topic or page is given; a topic has no topic, language or read confirmation of its own. */
interface NewEntryValues {
  scope: Scope;
  title: string;
  slug: string;
  topic: string | null;
  lang: string;
  requiresConfirmation: boolean;
}

/**
 * The form of something new: the slug follows the title while it is still the title's slug
 * (until edited by hand); a slug in use (409) is said at the field. Scope and language stay from
 * one opening to the next; `restart` empties the rest.
 */
function useNewEntry(takenText: string, start: Pick<NewEntryValues, "scope" | "topic" | "lang">) {
  const { t } = useTranslation();
  const form = useForm<NewEntryValues>({
    mode: "controlled",
    initialValues: { ...start, title: "", slug: "", requiresConfirmation: false },
    validate: { slug: (slug) => (slug !== "" && !WIKI_SLUG.test(slug) ? t("wiki.new.slugRule") : null) },
    validateInputOnChange: ["slug"],
    onValuesChange: (values, previous) => {
      if (values.title !== previous.title && values.slug === slugify(previous.title)) {
        form.setFieldValue("slug", slugify(values.title));
      }
    },
  });
  const values = form.getValues();
  const fields = (path: string) => (
    <>
      <TextInput
        label={t("wiki.new.title")}
        {...form.getInputProps("title")}
        maxLength={WIKI_TITLE_MAX}
        required
        data-autofocus
      />
      <TextInput
        label={t("wiki.new.slug")}
        description={t("wiki.new.slugHelp", { path: `${path}/${values.slug || "…"}` })}
        {...form.getInputProps("slug")}
        maxLength={63}
        required
      />
    </>
  );
  /** Runs the create call; a 409 marks the slug as taken, other failures get the usual toast. */
  const create = useMutation({
    mutationFn: (work: () => Promise<void>) => work(),
    onError: (err) => {
      if (err instanceof ApiError && err.status === 409) form.setFieldError("slug", takenText);
      else showError(err);
    },
  });
  return {
    form,
    values: { ...values, title: values.title.trim() },
    valid: values.title.trim() !== "" && values.slug !== "" && form.isValid(),
    busy: create.isPending,
    fields,
    create: create.mutate,
    restart: (topic: string | null) => {
      form.setValues({ title: "", slug: "", topic, requiresConfirmation: false });
      form.clearErrors();
    },
  };
}

/** The frame both dialogs share: title, the form, cancel and the one primary action. */
function NewDialog({
  opened,
  title,
  submitLabel,
  busy,
  valid,
  onSubmit,
  onClose,
  children,
}: {
  opened: boolean;
  title: string;
  submitLabel: string;
  busy: boolean;
  valid: boolean;
  onSubmit: () => void;
  onClose: () => void;
  children: React.ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (valid && !busy) onSubmit();
        }}
      >
        <Stack gap="sm">
          {children}
          <Group justify="flex-end" mt="sm">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={busy} disabled={!valid}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Kept mounted, so the dialog gives the focus back to its button when it closes; each opening starts empty. */
interface ModalProps {
  opened: boolean;
  onClose: () => void;
  tree: WikiTree;
}

/** A new page starts in the language the app is shown in, if pages are written in it; else German. */
const startLanguage = (shown: string): string =>
  (configuredLanguages as readonly string[]).includes(shown) ? shown : "de";

export function NewTopicModal({ opened, onClose, tree }: ModalProps) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const scopes = writableScopes(tree);
  const entry = useNewEntry(t("wiki.new.topicTaken"), {
    scope: scopes[0] ?? "common",
    topic: null,
    lang: startLanguage(i18n.language),
  });
  const v = entry.values;
  // biome-ignore lint/correctness/useExhaustiveDependencies: empties the form when the dialog opens, nothing else
  useEffect(() => {
    if (opened) entry.restart(null);
  }, [opened]);
  const submit = () =>
    entry.create(async () => {
      await call(api.wikiTopicCreate, {
        body: {
          key: v.slug,
          title: v.title,
          facility: v.scope === "facility" ? (tree.facility_id ?? undefined) : undefined,
        },
        silent: true,
      });
      showSuccess(t("success.wikiChanged"));
      await refreshWiki(queryClient);
      onClose();
    });
  return (
    <NewDialog
      opened={opened}
      title={t("wiki.new.topicTitle")}
      submitLabel={t("wiki.new.createTopic")}
      busy={entry.busy}
      valid={entry.valid}
      onSubmit={submit}
      onClose={onClose}
    >
      <ScopeChoice scopes={scopes} value={v.scope} onChange={(scope) => entry.form.setFieldValue("scope", scope)} />
      {entry.fields("/wiki")}
    </NewDialog>
  );
}

export function NewPageModal({ opened, onClose, tree, topic: presetTopic }: ModalProps & { topic?: string }) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const scopes = writableScopes(tree);
  const entry = useNewEntry(t("wiki.new.pageTaken"), {
    scope: scopes[0] ?? "common",
    topic: presetTopic ?? null,
    lang: startLanguage(i18n.language),
  });
  const { form, values: v } = entry;
  const languages = useWikiLanguages();
  // A common page belongs in a common topic; a facility's page may go in either.
  const topics = tree.topics.filter((tp) => v.scope === "facility" || tp.facility_id === null);
  const chosenTopic = topics.some((tp) => tp.key === v.topic) ? v.topic : null;
  // biome-ignore lint/correctness/useExhaustiveDependencies: empties the form when the dialog opens, nothing else
  useEffect(() => {
    if (opened) entry.restart(presetTopic ?? null);
  }, [opened]);

  const submit = (key: string) =>
    entry.create(async () => {
      await call(api.wikiPageCreate, {
        body: {
          topic: key,
          slug: v.slug,
          facility: v.scope === "facility" ? (tree.facility_id ?? undefined) : undefined,
          lang: v.lang,
          title: v.title,
          markdown: "",
          requires_confirmation: v.requiresConfirmation,
        },
        silent: true,
      });
      await refreshWiki(queryClient);
      onClose();
      // Straight into the editor: a new page is an empty draft.
      navigate(wikiPath(tree.facility_id, key, v.slug, { draft: "true", edit: "1", lang: v.lang }));
    });

  return (
    <NewDialog
      opened={opened}
      title={t("wiki.new.pageTitle")}
      submitLabel={t("wiki.new.createPage")}
      busy={entry.busy}
      valid={entry.valid && chosenTopic !== null}
      onSubmit={() => chosenTopic && submit(chosenTopic)}
      onClose={onClose}
    >
      <ScopeChoice scopes={scopes} value={v.scope} onChange={(scope) => form.setFieldValue("scope", scope)} />
      <Select
        label={t("wiki.new.topicLabel")}
        data={topics.map((tp) => ({ value: tp.key, label: tp.title }))}
        value={chosenTopic}
        onChange={(topic) => {
          form.clearFieldError("slug");
          form.setFieldValue("topic", topic);
        }}
        required
        allowDeselect={false}
        nothingFoundMessage={t("wiki.new.noTopics")}
      />
      {entry.fields(`/wiki/${chosenTopic ?? "…"}`)}
      {languages.length > 1 && (
        <Select
          label={t("wiki.editor.language")}
          data={languages.map((l) => ({ value: l, label: wikiLanguageName(t, l, i18n.language) }))}
          value={v.lang}
          onChange={(lang) => lang && form.setFieldValue("lang", lang)}
          allowDeselect={false}
        />
      )}
      <Switch
        label={t("wiki.editor.requiresConfirmation")}
        description={t("wiki.editor.requiresConfirmationHelp")}
        {...form.getInputProps("requiresConfirmation", { type: "checkbox" })}
      />
    </NewDialog>
  );
}

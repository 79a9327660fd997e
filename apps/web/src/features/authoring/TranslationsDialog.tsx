import {
  type AuthoringQuestion,
  api,
  CONTENT_LIMITS,
  type QuestionTranslation,
  type QuestionTranslations,
  type TranslationStatus,
} from "@carecampus/contract";
import {
  Alert,
  Button,
  Group,
  Modal,
  NativeSelect,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconAlertTriangle, IconWand } from "@tabler/icons-react";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../../api/client";
import { inLanguage } from "../../components/ContentName";
import { languageName } from "../../components/languageName";
import { SafeHtml } from "../../components/SafeHtml";
import { TranslationStatusControl } from "../../components/TranslationStatus";
import { useFocusBack } from "../../components/useFocusBack";
import { useContentLanguages } from "../../queries/content-languages";

const ExplanationEditor = lazy(() => import("./ExplanationEditor"));

const translationsKey = (id: number) => ["authoring", "translations", id] as const;

/**
 * A question's translations beside the German original (issue 31): one content language at a
 * time, the German on the left (binding, read only), the translation on the right with its status,
 * marked when outdated (the German changed since it was written).
 */
export function TranslationsDialog({ question, onClose }: { question: AuthoringQuestion; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  useFocusBack();
  const { data } = useQuery({
    queryKey: translationsKey(question.id),
    queryFn: () => call(api.authoringQuestionTranslations, { params: { id: question.id } }),
  });
  const suggestions = useContentLanguages().data?.machine_suggestions ?? false;
  const [chosen, setChosen] = useState<string | null>(null);
  // The dialog opens on the translation's first field (the form comes once its data are there); a
  // language chosen later leaves the focus on the choice.
  const [focusFirst, setFocusFirst] = useState(true);
  const lang = chosen ?? data?.content_languages[0] ?? null;
  let body: React.ReactNode;
  if (!data) body = <Skeleton h={240} />;
  else if (!lang) body = <Text>{t("authoring.translations.none")}</Text>;
  else {
    const written = data.translations.find((x) => x.lang === lang);
    body = (
      <Stack gap="md">
        {data.content_languages.length > 1 && (
          <NativeSelect
            label={t("authoring.translations.language")}
            value={lang}
            onChange={(e) => setChosen(e.currentTarget.value)}
            data={data.content_languages.map((l) => {
              const w = data.translations.find((x) => x.lang === l);
              const state = !w
                ? ""
                : ` – ${w.outdated ? t("authoring.translations.outdatedShort") : t(`authoring.translations.statuses.${w.status}`)}`;
              return { value: l, label: `${languageName(l, i18n.language)}${state}` };
            })}
            maw={360}
            data-testid="translation-language"
          />
        )}
        <TranslationForm
          key={lang}
          question={question}
          lang={lang}
          written={written}
          focusFirst={focusFirst}
          onFocused={() => setFocusFirst(false)}
          suggestions={suggestions}
        />
      </Stack>
    );
  }
  return (
    <Modal opened onClose={onClose} title={t("authoring.translations.title")} size="xl">
      {body}
    </Modal>
  );
}

interface Draft {
  text: string;
  answers: string[];
  explanation: string;
  hint: string;
  status: TranslationStatus;
}

/** The form's values for a written translation (empty fields where there is none). */
function draftOf(question: AuthoringQuestion, written: QuestionTranslation | undefined): Draft {
  return {
    text: written?.text ?? "",
    answers: question.answers.map((a) => written?.answers.find((x) => x.id === a.id)?.text ?? ""),
    explanation: written?.explanation ?? "",
    hint: written?.hint ?? "",
    status: written?.status ?? "draft",
  };
}

function TranslationForm({
  question,
  lang,
  written,
  focusFirst,
  onFocused,
  suggestions,
}: {
  question: AuthoringQuestion;
  lang: string;
  written: QuestionTranslation | undefined;
  focusFirst: boolean;
  onFocused: () => void;
  /** The installation has a machine translation service (MACHINE_TRANSLATION_URL). */
  suggestions: boolean;
}) {
  const firstField = useRef<HTMLTextAreaElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, when the form first shows
  useEffect(() => {
    if (!focusFirst) return;
    firstField.current?.focus();
    onFocused();
  }, []);
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const explanationLabel = useId();
  const form = useForm<Draft>({
    mode: "controlled",
    initialValues: draftOf(question, written),
    validate: {
      text: (v) => (v.trim() === "" ? t("common.required") : null),
      answers: (list) => (list.some((a) => a.trim() === "") ? t("authoring.translations.allAnswers") : null),
      explanation: (v) => (v.trim() === "" ? t("common.required") : null),
    },
  });
  const save = useMutation({
    mutationFn: (d: Draft) =>
      call(api.authoringQuestionTranslationSave, {
        params: { id: question.id, lang },
        body: {
          text: d.text.trim(),
          answers: question.answers.map((a, i) => ({ id: a.id, text: (d.answers[i] ?? "").trim() })),
          explanation: d.explanation,
          hint: d.hint.trim() === "" ? null : d.hint.trim(),
          status: d.status,
        },
      }),
    // A failure: the client showed the error.
    onSuccess: (next: QuestionTranslations) => {
      queryClient.setQueryData(translationsKey(question.id), next);
      form.resetDirty();
      showSuccess(t("authoring.translations.saved", { language: languageName(lang, i18n.language) }));
    },
  });
  // A machine's suggestion fills the empty fields on the server; unsaved changes would be lost, so
  // they are saved first. The explanation's editor takes its new value by being made anew.
  const [editorRound, setEditorRound] = useState(0);
  const suggest = useMutation({
    // What the form holds goes along, saved or not: the machine fills only what is still empty.
    mutationFn: () => {
      const d = form.getValues();
      return call(api.authoringQuestionTranslationSuggest, {
        params: { id: question.id, lang },
        body: {
          text: d.text,
          answers: question.answers.map((a, i) => ({ id: a.id, text: d.answers[i] ?? "" })),
          explanation: d.explanation,
          hint: d.hint,
        },
      });
    },
    // A failure: the client showed the error.
    onSuccess: ({ filled, ...next }) => {
      queryClient.setQueryData(translationsKey(question.id), next);
      if (filled.length === 0) {
        showSuccess(t("authoring.translations.suggestedNothing"));
        return;
      }
      form.setValues(
        draftOf(
          question,
          next.translations.find((x) => x.lang === lang),
        ),
      );
      form.resetDirty();
      setEditorRound((n) => n + 1);
      showSuccess(t("authoring.translations.suggested", { count: filled.length }));
      firstField.current?.focus();
    },
  });
  const d = form.getValues();
  // The translation's language and direction on each of its fields; labels and buttons keep the interface's.
  const fieldLanguage = inLanguage(lang);
  return (
    <form onSubmit={form.onSubmit((v) => save.mutate(v))}>
      <Stack gap="md">
        {written?.outdated && (
          <Alert color="orange" variant="light" icon={<IconAlertTriangle />} data-testid="translation-outdated">
            {t("authoring.translations.outdated")}
          </Alert>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
          <Paper withBorder p="sm" lang="de" data-testid="translation-original">
            <Title order={3} size="h5" mb="xs">
              {t("authoring.translations.original")}
            </Title>
            <Text fw={600} mb="xs">
              {question.text}
            </Text>
            <Stack gap={4} component="ol" mb="xs" style={{ paddingInlineStart: "1.2rem", margin: 0 }}>
              {question.answers.map((a) => (
                <Text component="li" size="sm" key={a.id}>
                  {a.text}
                </Text>
              ))}
            </Stack>
            <SafeHtml html={question.explanation} />
            {question.hint && (
              <Text size="sm" c="dimmed">
                {t("quiz.hint")}: {question.hint}
              </Text>
            )}
          </Paper>
          <Stack gap="sm">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Title order={3} size="h5">
                {languageName(lang, i18n.language)}
              </Title>
              {suggestions && (
                <Button
                  size="compact-sm"
                  variant="light"
                  leftSection={<IconWand size={14} aria-hidden />}
                  loading={suggest.isPending}
                  aria-describedby={`${explanationLabel}-suggest`}
                  onClick={() => suggest.mutate()}
                >
                  {t("authoring.translations.suggest")}
                </Button>
              )}
            </Group>
            {suggestions && (
              <Text size="xs" c="dimmed" id={`${explanationLabel}-suggest`}>
                {t("authoring.translations.suggestHelp")}
              </Text>
            )}
            <Textarea
              ref={firstField}
              label={t("authoring.questionText")}
              autosize
              minRows={2}
              maxLength={CONTENT_LIMITS.questionText}
              required
              {...fieldLanguage}
              {...form.getInputProps("text")}
            />
            {question.answers.map((a, i) => (
              <TextInput
                key={a.id}
                label={t("authoring.answerN", { n: i + 1 })}
                maxLength={CONTENT_LIMITS.answerText}
                required
                {...fieldLanguage}
                {...form.getInputProps(`answers.${i}`)}
              />
            ))}
            {form.errors.answers && (
              <Text c="red" size="sm" role="alert">
                {form.errors.answers}
              </Text>
            )}
            <div>
              <Text fw={600} size="sm" mb={4} id={explanationLabel}>
                {t("quiz.explanation")}
              </Text>
              <Suspense fallback={<Skeleton h={120} />}>
                <ExplanationEditor
                  {...fieldLanguage}
                  key={editorRound}
                  value={d.explanation}
                  onChange={(html) => form.setFieldValue("explanation", html)}
                  labelId={explanationLabel}
                  invalid={!!form.errors.explanation}
                />
              </Suspense>
              {form.errors.explanation && (
                <Text c="red" size="sm" role="alert" mt={4}>
                  {form.errors.explanation}
                </Text>
              )}
            </div>
            <TextInput
              label={t("quiz.hint")}
              maxLength={CONTENT_LIMITS.hint}
              {...fieldLanguage}
              {...form.getInputProps("hint")}
            />
          </Stack>
        </SimpleGrid>
        <TranslationStatusControl
          value={d.status}
          onChange={(s) => form.setFieldValue("status", s)}
          label={t("authoring.translations.status")}
          help={t("authoring.translations.statusHelp")}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={save.isPending}>
            {t("common.save")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

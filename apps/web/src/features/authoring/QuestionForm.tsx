import {
  type AuthoringQuestion,
  type AuthoringQuestionInput,
  api,
  CONTENT_LIMITS,
  type QuestionMediaRef,
  questionProblems,
} from "@carecampus/contract";
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  FileButton,
  Group,
  Image,
  Paper,
  Radio,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconArrowDown, IconArrowUp, IconPhoto, IconPlus, IconTrash } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { lazy, Suspense, useEffect, useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl, showError } from "../../api/client";
import { mediaProblem, uploadQuestionMedia } from "./queries";

const ExplanationEditor = lazy(() => import("./ExplanationEditor"));

interface DraftAnswer {
  key: number;
  text: string;
  correct: boolean;
}

export interface QuestionDraft {
  type: "single" | "multiple";
  text: string;
  answers: DraftAnswer[];
  explanation: string;
  hint: string;
  media: QuestionMediaRef | null;
}

let nextKey = 1;
const answer = (text = "", correct = false): DraftAnswer => ({ key: nextKey++, text, correct });

export function draftOf(q: AuthoringQuestion | null): QuestionDraft {
  if (!q) return { type: "single", text: "", answers: [answer(), answer()], explanation: "", hint: "", media: null };
  return {
    type: q.type,
    text: q.text,
    answers: q.answers.map((a) => answer(a.text, a.correct)),
    explanation: q.explanation,
    hint: q.hint ?? "",
    media: q.media,
  };
}

/** The rows that count: an answer row left empty is not an answer (nor a problem), it is left out. */
const filled = (answers: readonly DraftAnswer[]) => answers.filter((a) => a.text.trim() !== "");

export function inputOf(d: QuestionDraft): AuthoringQuestionInput {
  return {
    type: d.type,
    text: d.text.trim(),
    answers: filled(d.answers).map((a) => ({ text: a.text.trim(), correct: a.correct })),
    explanation: d.explanation,
    hint: d.hint.trim() === "" ? null : d.hint.trim(),
    media: d.media,
  };
}

/** The asterisk of a required field, as Mantine marks its inputs' labels (screen readers hear "required" there). */
function RequiredMark() {
  const { t } = useTranslation();
  return (
    <Text component="span" c="red" ml={4} title={t("common.required")}>
      *
    </Text>
  );
}

function move<T>(list: T[], from: number, to: number): T[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  if (item !== undefined) out.splice(to, 0, item);
  return out;
}

/**
 * One question in the editor: type, text, answers with their right flags (add, remove,
 * reorder), the explanation as rich text, hint and an image or mp4. The contract's rules are
 * checked here as the server checks them.
 */
export function QuestionForm({
  initial,
  answered,
  onSave,
  onCancel,
}: {
  initial: QuestionDraft;
  /** Learners answered it: a change of text, type or answers makes a new version. */
  answered: boolean;
  /** Saves; `next`: then the next question opens (a new one after the last). */
  onSave: (input: AuthoringQuestionInput, next: boolean) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const explanationLabel = useId();
  const firstError = useRef<HTMLDivElement>(null);
  const questionText = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    questionText.current?.focus();
  }, []);
  /** Problems show once saving was tried, and from then on follow every change. */
  const tried = useRef(false);
  const form = useForm<QuestionDraft>({
    mode: "controlled",
    initialValues: initial,
    // The contract's rules, by the path of the field they concern (e.g. "answers.2.text").
    validate: (values) => {
      const errors: Record<string, string> = {};
      // A problem of the n-th filled answer belongs to its row in the form.
      const rows = values.answers.flatMap((a, i) => (a.text.trim() === "" ? [] : [i]));
      for (const p of questionProblems(inputOf(values))) {
        const path =
          p.path[0] === "answers" && typeof p.path[1] === "number"
            ? ["answers", rows[p.path[1]], ...p.path.slice(2)]
            : p.path;
        errors[path.join(".")] ??= t(`authoring.problems.${p.code}`, {
          max: CONTENT_LIMITS.answersMax,
          min: CONTENT_LIMITS.answersMin,
        });
      }
      return errors;
    },
    onValuesChange: () => {
      if (tried.current) form.validate();
    },
  });
  const d = form.getValues();
  const problemAt = (...path: (string | number)[]) => form.errors[path.join(".")] as string | undefined;
  const setAnswers = (update: (answers: DraftAnswer[]) => DraftAnswer[]) =>
    form.setFieldValue("answers", update(form.getValues().answers));
  const setAnswer = (i: number, patch: Partial<DraftAnswer>) =>
    setAnswers((answers) =>
      answers.map((a, j) => {
        if (j === i) return { ...a, ...patch };
        // A single-choice question has one right answer: choosing one unchooses the others.
        if (patch.correct && d.type === "single") return { ...a, correct: false };
        return a;
      }),
    );

  const save = useMutation({
    mutationFn: ({ input, next }: { input: AuthoringQuestionInput; next: boolean }) => onSave(input, next),
  });
  const submit = (next: boolean) =>
    form.onSubmit(
      (values) => {
        tried.current = true;
        save.mutate({ input: inputOf(values), next });
      },
      () => {
        tried.current = true;
        requestAnimationFrame(() =>
          firstError.current?.querySelector<HTMLElement>("[aria-invalid=true], [data-error]")?.focus(),
        );
      },
    )();

  const upload = useMutation({
    mutationFn: (file: File) => uploadQuestionMedia(file),
    onSuccess: (res) => form.setFieldValue("media", { type: res.type, id: res.id }),
    onError: showError,
  });
  const chooseMedia = (file: File | null) => {
    if (!file) return;
    const problem = mediaProblem(file);
    if (problem) showError(new Error(t(`authoring.media.${problem}`)));
    else upload.mutate(file);
  };

  const answersProblem = problemAt("answers");
  return (
    <Paper withBorder p={{ base: "sm", sm: "md" }} ref={firstError} data-testid="question-form">
      <Stack gap="md">
        {answered && (
          <Alert color="blue" variant="light">
            {t("authoring.answeredNote")}
          </Alert>
        )}
        <Radio.Group
          label={t("authoring.type")}
          value={d.type}
          onChange={(v) => {
            // Single choice keeps only the first right answer.
            if (v === "single") {
              const first = d.answers.findIndex((b) => b.correct);
              setAnswers((answers) => answers.map((a, i) => ({ ...a, correct: a.correct && first === i })));
            }
            form.setFieldValue("type", v === "multiple" ? "multiple" : "single");
          }}
        >
          <Group gap="lg" mt={4}>
            <Radio value="single" label={t("quiz.single")} />
            <Radio value="multiple" label={t("quiz.multiple")} />
          </Group>
        </Radio.Group>
        <Textarea
          label={t("authoring.questionText")}
          // The form opens where the question was, or at the end: the keyboard starts in it.
          ref={questionText}
          {...form.getInputProps("text")}
          autosize
          minRows={2}
          maxLength={CONTENT_LIMITS.questionText}
          required
        />
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t("authoring.answers")}
            <RequiredMark />
          </Title>
          <Text size="sm" c="dimmed">
            {d.type === "single" ? t("authoring.rightSingle") : t("authoring.rightMultiple")}{" "}
            {t("authoring.emptyIgnored")}
          </Text>
          {answersProblem && (
            <Text c="red" size="sm" role="alert" data-error>
              {answersProblem}
            </Text>
          )}
          {d.answers.map((a, i) => (
            <Group key={a.key} gap="xs" wrap="nowrap" align="flex-start" data-testid="answer-row">
              {d.type === "single" ? (
                <Radio
                  mt={8}
                  checked={a.correct}
                  onChange={() => setAnswer(i, { correct: true })}
                  aria-label={t("authoring.isRight", { n: i + 1 })}
                />
              ) : (
                <Checkbox
                  mt={8}
                  checked={a.correct}
                  onChange={(e) => setAnswer(i, { correct: e.currentTarget.checked })}
                  aria-label={t("authoring.isRight", { n: i + 1 })}
                />
              )}
              <TextInput
                style={{ flex: 1, minWidth: 0 }}
                aria-label={t("authoring.answerN", { n: i + 1 })}
                value={a.text}
                maxLength={CONTENT_LIMITS.answerText}
                onChange={(e) => setAnswer(i, { text: e.currentTarget.value })}
                error={problemAt("answers", i, "text")}
              />
              <ActionIcon.Group>
                <ActionIcon
                  variant="default"
                  size="lg"
                  disabled={i === 0}
                  onClick={() => setAnswers((answers) => move(answers, i, i - 1))}
                  aria-label={t("authoring.moveUp")}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  size="lg"
                  disabled={i === d.answers.length - 1}
                  onClick={() => setAnswers((answers) => move(answers, i, i + 1))}
                  aria-label={t("authoring.moveDown")}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  size="lg"
                  onClick={() => setAnswers((answers) => answers.filter((_, j) => j !== i))}
                  aria-label={t("authoring.removeAnswer", { n: i + 1 })}
                >
                  <IconTrash size={16} />
                </ActionIcon>
              </ActionIcon.Group>
            </Group>
          ))}
          <Group>
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              disabled={d.answers.length >= CONTENT_LIMITS.answersMax}
              onClick={() => setAnswers((answers) => [...answers, answer()])}
            >
              {t("authoring.addAnswer")}
            </Button>
          </Group>
        </Stack>
        <div>
          <Text fw={600} size="sm" mb={4} id={explanationLabel}>
            {t("quiz.explanation")}
            <RequiredMark />
          </Text>
          <Suspense fallback={<Skeleton h={120} />}>
            <ExplanationEditor
              value={d.explanation}
              onChange={(html) => form.setFieldValue("explanation", html)}
              labelId={explanationLabel}
              invalid={!!problemAt("explanation")}
            />
          </Suspense>
          {problemAt("explanation") && (
            <Text c="red" size="sm" role="alert" mt={4}>
              {problemAt("explanation")}
            </Text>
          )}
        </div>
        <TextInput label={t("quiz.hint")} {...form.getInputProps("hint")} maxLength={CONTENT_LIMITS.hint} />
        <Stack gap="xs">
          <Text fw={600} size="sm">
            {t("authoring.media.label")}
          </Text>
          {d.media?.type === "image" && (
            <Image
              src={authedUrl(api.staticImage, { params: { id: d.media.id } })}
              maw={320}
              radius="sm"
              alt={t("authoring.media.label")}
            />
          )}
          {d.media?.type === "video" && <Text size="sm">{t("authoring.media.video")}</Text>}
          <Group>
            <FileButton onChange={chooseMedia} accept="image/png,image/jpeg,image/webp,video/mp4">
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconPhoto size={16} />} loading={upload.isPending}>
                  {d.media ? t("authoring.media.replace") : t("authoring.media.add")}
                </Button>
              )}
            </FileButton>
            {d.media && (
              <Button variant="subtle" color="red" onClick={() => form.setFieldValue("media", null)}>
                {t("authoring.media.remove")}
              </Button>
            )}
          </Group>
          <Text size="xs" c="dimmed">
            {t("authoring.media.limits")}
          </Text>
        </Stack>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t("common.cancel")}
          </Button>
          <Button variant="light" onClick={() => submit(true)} loading={save.isPending && save.variables?.next}>
            {t("authoring.saveAndNext")}
          </Button>
          <Button onClick={() => submit(false)} loading={save.isPending && !save.variables?.next}>
            {t("authoring.saveQuestion")}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

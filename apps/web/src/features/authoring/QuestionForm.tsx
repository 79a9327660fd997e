import {
  type AuthoringQuestion,
  type AuthoringQuestionInput,
  api,
  CONTENT_LIMITS,
  type QuestionMediaRef,
  type QuestionProblem,
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
import { IconArrowDown, IconArrowUp, IconPhoto, IconPlus, IconTrash } from "@tabler/icons-react";
import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
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

export function inputOf(d: QuestionDraft): AuthoringQuestionInput {
  return {
    type: d.type,
    text: d.text.trim(),
    answers: d.answers.map((a) => ({ text: a.text.trim(), correct: a.correct })),
    explanation: d.explanation,
    hint: d.hint.trim() === "" ? null : d.hint.trim(),
    media: d.media,
  };
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
  onSave: (input: AuthoringQuestionInput) => Promise<void>;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [d, setD] = useState(initial);
  const [tried, setTried] = useState(false);
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);
  const explanationLabel = useId();
  const firstError = useRef<HTMLDivElement>(null);
  const questionText = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    questionText.current?.focus();
  }, []);
  const problems: QuestionProblem[] = questionProblems(inputOf(d));
  const problemAt = (...path: (string | number)[]) =>
    tried ? problems.find((p) => p.path.join(".") === path.join(".")) : undefined;
  const say = (p: QuestionProblem | undefined) =>
    p
      ? t(`authoring.problems.${p.code}`, { max: CONTENT_LIMITS.answersMax, min: CONTENT_LIMITS.answersMin })
      : undefined;
  const setAnswer = (i: number, patch: Partial<DraftAnswer>) =>
    setD((x) => ({
      ...x,
      answers: x.answers.map((a, j) => {
        if (j === i) return { ...a, ...patch };
        // A single-choice question has one right answer: choosing one unchooses the others.
        if (patch.correct && x.type === "single") return { ...a, correct: false };
        return a;
      }),
    }));

  const save = async () => {
    setTried(true);
    if (problems.length > 0) {
      requestAnimationFrame(() =>
        firstError.current?.querySelector<HTMLElement>("[aria-invalid=true], [data-error]")?.focus(),
      );
      return;
    }
    setBusy(true);
    try {
      await onSave(inputOf(d));
    } finally {
      setBusy(false);
    }
  };

  const upload = async (file: File | null) => {
    if (!file) return;
    const problem = mediaProblem(file);
    if (problem) {
      showError(new Error(t(`authoring.media.${problem}`)));
      return;
    }
    setUploading(true);
    try {
      const res = await uploadQuestionMedia(file);
      setD((x) => ({ ...x, media: { type: res.type, id: res.id } }));
    } catch (err) {
      showError(err);
    } finally {
      setUploading(false);
    }
  };

  const answersProblem = say(problemAt("answers"));
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
          onChange={(v) =>
            setD((x) => ({
              ...x,
              type: v === "multiple" ? "multiple" : "single",
              // Single choice keeps only the first right answer.
              answers:
                v === "single"
                  ? x.answers.map((a, i) => ({
                      ...a,
                      correct: a.correct && x.answers.findIndex((b) => b.correct) === i,
                    }))
                  : x.answers,
            }))
          }
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
          value={d.text}
          onChange={(e) => {
            const text = e.currentTarget.value;
            setD((x) => ({ ...x, text }));
          }}
          autosize
          minRows={2}
          maxLength={CONTENT_LIMITS.questionText}
          error={say(problemAt("text"))}
          required
        />
        <Stack gap="xs">
          <Title order={3} size="h5">
            {t("authoring.answers")}
          </Title>
          <Text size="sm" c="dimmed">
            {d.type === "single" ? t("authoring.rightSingle") : t("authoring.rightMultiple")}
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
                error={say(problemAt("answers", i, "text"))}
              />
              <ActionIcon.Group>
                <ActionIcon
                  variant="default"
                  size="lg"
                  disabled={i === 0}
                  onClick={() => setD((x) => ({ ...x, answers: move(x.answers, i, i - 1) }))}
                  aria-label={t("authoring.moveUp")}
                >
                  <IconArrowUp size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  size="lg"
                  disabled={i === d.answers.length - 1}
                  onClick={() => setD((x) => ({ ...x, answers: move(x.answers, i, i + 1) }))}
                  aria-label={t("authoring.moveDown")}
                >
                  <IconArrowDown size={16} />
                </ActionIcon>
                <ActionIcon
                  variant="default"
                  size="lg"
                  onClick={() => setD((x) => ({ ...x, answers: x.answers.filter((_, j) => j !== i) }))}
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
              onClick={() => setD((x) => ({ ...x, answers: [...x.answers, answer()] }))}
            >
              {t("authoring.addAnswer")}
            </Button>
          </Group>
        </Stack>
        <div>
          <Text fw={600} size="sm" mb={4} id={explanationLabel}>
            {t("quiz.explanation")}
          </Text>
          <Suspense fallback={<Skeleton h={120} />}>
            <ExplanationEditor
              value={d.explanation}
              onChange={(html) => setD((x) => ({ ...x, explanation: html }))}
              labelId={explanationLabel}
              invalid={!!problemAt("explanation")}
            />
          </Suspense>
          {problemAt("explanation") && (
            <Text c="red" size="sm" role="alert" mt={4}>
              {say(problemAt("explanation"))}
            </Text>
          )}
        </div>
        <TextInput
          label={t("quiz.hint")}
          value={d.hint}
          maxLength={CONTENT_LIMITS.hint}
          onChange={(e) => {
            const hint = e.currentTarget.value;
            setD((x) => ({ ...x, hint }));
          }}
        />
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
            <FileButton onChange={(f) => void upload(f)} accept="image/png,image/jpeg,image/webp,video/mp4">
              {(props) => (
                <Button {...props} variant="default" leftSection={<IconPhoto size={16} />} loading={uploading}>
                  {d.media ? t("authoring.media.replace") : t("authoring.media.add")}
                </Button>
              )}
            </FileButton>
            {d.media && (
              <Button variant="subtle" color="red" onClick={() => setD((x) => ({ ...x, media: null }))}>
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
          <Button onClick={() => void save()} loading={busy}>
            {t("authoring.saveQuestion")}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

import { type AnswerResult, api, type Question, type Questionnaire } from "@carecampus/contract";
import {
  ActionIcon,
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Progress,
  Radio,
  Skeleton,
  Stack,
  Text,
  Title,
  Tooltip,
} from "@mantine/core";
import { IconCheck, IconHelpCircle, IconLock, IconX } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import confetti from "canvas-confetti";
import { type FormEvent, type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { authedHref, authedUrl, call, freshLink, showSuccess } from "../../api/client";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { pickFeedback } from "../../components/quiz/feedback";
import { QuestionHeader } from "../../components/quiz/QuizViews";
import classes from "../../components/quiz/quiz.module.css";
import { useQuiz } from "../../components/quiz/useQuiz";
import { SafeHtml } from "../../components/SafeHtml";
import { invalidateLearning } from "../../queries/learning";
import { ExplanationImage } from "./ExplanationImage";
import { questionnaireLabel } from "./labels";
import { OwnHelpNote } from "./OwnHelpNote";
import { useNextQuestion, useTraining } from "./queries";
import { canReadAloud, htmlText, ReadAloud } from "./ReadAloud";

/** Sends a help request after a confirmation; once one is open it says so instead (one per question). */
function HelpButton({ questionId, asked }: { questionId: number; asked: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(asked);
  const send = async () => {
    setBusy(true);
    try {
      await call(api.helpRequestCreate, { body: { question_id: questionId } });
      showSuccess(t("quiz.help.sent"));
      setSent(true);
      setOpen(false);
    } catch {
      // toast shown by the client
    } finally {
      setBusy(false);
    }
  };
  if (sent) {
    return (
      <Badge variant="light" color="blue" size="lg" leftSection={<IconHelpCircle size={16} />} data-testid="help-asked">
        <Text span size="xs" fw={600} style={{ whiteSpace: "normal" }}>
          {t("quiz.help.asked")}
        </Text>
      </Badge>
    );
  }
  return (
    <>
      <Tooltip label={t("quiz.help.button")}>
        <ActionIcon variant="subtle" size="lg" onClick={() => setOpen(true)} aria-label={t("quiz.help.button")}>
          <IconHelpCircle size={24} />
        </ActionIcon>
      </Tooltip>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        title={t("quiz.help.title")}
        centered
        closeButtonProps={{ "aria-label": t("common.close") }}
      >
        <Text mb="lg">{t("quiz.help.text")}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t("common.cancel")}
          </Button>
          <Button onClick={() => void send()} loading={busy}>
            {t("quiz.help.send")}
          </Button>
        </Group>
      </Modal>
    </>
  );
}

type FocusTarget = (el: HTMLElement | null) => void;

function FeedbackPopup({
  src,
  right,
  focusTarget,
}: {
  src: string | undefined;
  right: boolean;
  focusTarget: FocusTarget;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={classes.popup}
      role="status"
      aria-live="assertive"
      tabIndex={-1}
      ref={focusTarget}
      data-testid="feedback-popup"
    >
      {src ? (
        <img src={src} alt={right ? t("quiz.right") : t("quiz.wrong")} />
      ) : (
        <Title c="white">{right ? t("quiz.right") : t("quiz.wrong")}</Title>
      )}
    </div>
  );
}

/** The screen's action: on phones a bar at the bottom of the viewport, in the thumb's reach. */
function ActionBar({ children }: { children: ReactNode }) {
  return (
    <div className={classes.actionsSlot}>
      <div className={classes.actions} data-testid="quiz-actions">
        {children}
      </div>
    </div>
  );
}

type Mark = "chosenRight" | "chosenWrong" | "missed" | "right";

/**
 * How an answer fared, in words (not colour alone): the learner's own choices, right or wrong,
 * apart from the right answers they missed ('also right' where several are right).
 */
function markOf(id: number, right: Set<number>, chosen: number[], multiple: boolean): Mark | null {
  const mine = chosen.includes(id);
  if (mine) return right.has(id) ? "chosenRight" : "chosenWrong";
  if (right.has(id)) return multiple ? "missed" : "right";
  return null;
}

function MarkIcon({ mark }: { mark: Mark | null }) {
  return (
    <span className={classes.status} data-testid="answer-status" data-mark={mark ?? undefined} aria-hidden>
      {mark === "chosenWrong" ? <IconX size={20} /> : mark ? <IconCheck size={20} /> : null}
    </span>
  );
}

function Explanation({
  asked,
  result,
  chosen,
  focusTarget,
  onGoOn,
}: {
  asked: Question;
  result: AnswerResult;
  chosen: number[];
  focusTarget: FocusTarget;
  onGoOn: () => void;
}) {
  const { t } = useTranslation();
  const right = new Set(result.answers_correct);
  const multiple = asked.type === "multiple";
  const verdict = result.is_correct ? t("quiz.right") : t("quiz.wrong");
  const rows = asked.answers.map((a) => ({ ...a, mark: markOf(a.id, right, chosen, multiple) }));
  const explanation = htmlText(result.explanation);
  return (
    <Paper withBorder p={{ base: "md", sm: "lg" }} data-testid="explanation">
      <Group justify="space-between" mb="sm" align="flex-start" gap="xs">
        <Group gap="xs" wrap="nowrap">
          <span className={classes.verdictIcon} data-right={result.is_correct || undefined} aria-hidden>
            {result.is_correct ? <IconCheck size={26} /> : <IconX size={26} />}
          </span>
          <Title
            order={2}
            size="h3"
            className={classes.verdict}
            data-right={result.is_correct || undefined}
            tabIndex={-1}
            ref={focusTarget}
            data-testid="verdict"
          >
            {verdict}
          </Title>
        </Group>
        <Group gap="xs" wrap="nowrap">
          <ReadAloud
            testId="read-aloud-feedback"
            parts={[
              verdict,
              asked.text,
              ...rows.map((r) => (r.mark ? `${r.text} – ${t(`quiz.mark.${r.mark}`)}` : r.text)),
            ]}
          />
          <HelpButton key={asked.id} questionId={asked.id} asked={result.help.open} />
        </Group>
      </Group>
      <Text fw={600} mb="sm">
        {asked.text}
      </Text>
      <Stack gap="xs" mb="md">
        {rows.map((a) => (
          <Box
            key={a.id}
            className={classes.feedbackAnswer}
            data-mark={a.mark ?? undefined}
            data-testid="feedback-answer"
          >
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <MarkIcon mark={a.mark} />
              <div className={classes.answerText}>
                <Text>{a.text}</Text>
                {a.mark && (
                  <Text size="sm" fw={700} className={classes.markText}>
                    {t(`quiz.mark.${a.mark}`)}
                  </Text>
                )}
              </div>
            </Group>
          </Box>
        ))}
      </Stack>
      {result.media?.type === "image" && (
        <ExplanationImage src={authedUrl(api.staticImage, { params: { id: result.media.id } })} />
      )}
      {result.media?.type === "video" && (
        // biome-ignore lint/a11y/useMediaCaption: the training videos carry no speech
        <video
          src={authedUrl(api.staticVideo, { params: { id: result.media.id } })}
          controls
          playsInline
          preload="metadata"
          style={{ maxWidth: "100%", borderRadius: 8 }}
        />
      )}
      {result.hint && (
        <Alert color="blue" variant="light" title={t("quiz.hint")} mb="md" mt="sm">
          {result.hint}
        </Alert>
      )}
      <Group justify="space-between" wrap="nowrap" mb={4}>
        <Title order={3} size="h5">
          {t("quiz.explanation")}
        </Title>
        <ReadAloud
          testId="read-aloud-explanation"
          parts={[result.hint ? `${t("quiz.hint")}: ${result.hint}` : "", t("quiz.explanation"), explanation]}
        />
      </Group>
      <SafeHtml html={result.explanation} />
      <OwnHelpNote help={result.help} />
      <ActionBar>
        <Button size="md" onClick={onGoOn}>
          {result.finished ? t("quiz.finish") : t("quiz.nextQuestion")}
        </Button>
      </ActionBar>
    </Paper>
  );
}

function Quiz() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const params = useParams();
  const topicId = Number(params.topicId);
  const trainingId = Number(params.trainingId);
  const questionnaireId = Number(params.questionnaireId);
  const trainingPath = `/topic/${topicId}/training/${trainingId}`;
  const quizPath = (q: Questionnaire) => `${trainingPath}/questionnaire/${q.id}`;
  const practice = useSearchParams()[0].get("practice") === "true";

  const training = useTraining(topicId, trainingId);
  const quiz = useQuiz({
    sendAnswer: (q, answers) =>
      call(api.answerSubmit, {
        params: { topic: topicId, training: trainingId, q: questionnaireId, question: q.id },
        query: { practice: practice ? "true" : undefined },
        body: answers,
      }),
    feedback: (right) => pickFeedback(right, i18n.language),
    onAnswered: (res) => {
      if (res.is_correct && !window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
        void confetti({ particleCount: 120, spread: 75, origin: { y: 0.6 }, disableForReducedMotion: true });
      }
      void invalidateLearning(queryClient);
    },
    loadNext: () => void next.refetch(),
  });
  const { phase, selected, result, asked, popup } = quiz;
  const questionnaires = training.data?.questionnaires ?? [];
  const current = questionnaires.find((q) => q.id === questionnaireId);
  // Opened by its address before the one it waits for is finished: say so (no question request).
  const locked = current?.disabled === true;
  // The next-question query runs while a question is on screen (also during the pop-up).
  const wantsQuestion = !locked && (phase === "question" || phase === "sending" || phase === "feedback");
  const next = useNextQuestion(topicId, trainingId, questionnaireId, wantsQuestion, practice);
  const question = next.data?.question ?? null;
  const loadingQuestion = phase === "question" && (next.isPending || next.isFetching);

  // Focus follows the new content: the intro, the question, the pop-up, the verdict, the next action.
  const focusRef = useRef<HTMLElement | null>(null);
  const focusTarget = useCallback<FocusTarget>((el) => {
    focusRef.current = el;
  }, []);
  const nextQuestionnaire =
    phase === "result" && result?.finished?.success && !practice
      ? questionnaires.find((q) => q.id !== questionnaireId && !q.finished && !q.disabled)
      : undefined;
  let focusKey: string | null = null;
  if (training.data) {
    if (locked) focusKey = "locked";
    else if (phase === "intro") focusKey = "intro";
    else if (wantsQuestion && !loadingQuestion)
      focusKey = phase === "feedback" ? "popup" : question ? `question:${question.id}:${question.round}` : "done";
    else if (phase === "explanation") focusKey = `explanation:${asked?.id}`;
    else if (phase === "result") focusKey = `result:${nextQuestionnaire?.id ?? ""}`;
  }
  // Reading aloud ends with the screen it reads (the next question, the verdict, another page).
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs whenever the screen changes
  useEffect(() => {
    if (canReadAloud()) window.speechSynthesis.cancel();
    return () => {
      if (canReadAloud()) window.speechSynthesis.cancel();
    };
  }, [focusKey]);
  useEffect(() => {
    const el = focusRef.current;
    if (!focusKey || !el) return;
    el.focus({ preventScroll: true });
    const box = el.getBoundingClientRect();
    const header = document.querySelector("header")?.getBoundingClientRect().bottom ?? 0;
    if (box.top < header || box.bottom > window.innerHeight) {
      el.scrollIntoView({ block: el.tagName.startsWith("H") ? "start" : "center" });
    }
  }, [focusKey]);

  if (training.isError || (training.data && !current)) return <NotFoundPage />;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (question) void quiz.send(question);
  };

  const title = training.data ? training.data.training.name : "";
  const count = result?.count ?? next.data?.count ?? 0;
  const total = result?.total ?? next.data?.total ?? 0;
  const backButton = (primary: boolean, ref?: FocusTarget) => (
    <Button component={Link} to={trainingPath} variant={primary ? "filled" : "default"} ref={ref}>
      {t("quiz.result.back")}
    </Button>
  );

  let body: ReactNode;
  if (!training.data) {
    body = <Skeleton h={280} />;
  } else if (locked) {
    const first = questionnaires.find((q) => !q.disabled && !q.finished);
    const firstName = first ? questionnaireLabel(t, first.name) : "";
    body = (
      <Paper withBorder p={{ base: "md", sm: "lg" }} data-testid="quiz-locked">
        <Group gap="sm" wrap="nowrap" mb="sm">
          <IconLock size={26} aria-hidden />
          <Title order={2} size="h3">
            {t("quiz.locked.title")}
          </Title>
        </Group>
        {first ? (
          <>
            <Text mb="lg">{t("quiz.locked.text", { name: firstName })}</Text>
            <Group gap="sm">
              <Button component={Link} to={quizPath(first)} ref={focusTarget}>
                {t("quiz.locked.toFirst", { name: firstName })}
              </Button>
              {backButton(false)}
            </Group>
          </>
        ) : (
          <>
            <Text mb="lg">{t("questionnaires.locked")}</Text>
            {backButton(true, focusTarget)}
          </>
        )}
      </Paper>
    );
  } else if (phase === "intro") {
    body = (
      <Paper withBorder p="lg">
        <Title order={2} size="h3" mb="sm" tabIndex={-1} ref={focusTarget} className={classes.focusTitle}>
          {t("quiz.independence.title")}
        </Title>
        <Text mb="md">{t("quiz.independence.text")}</Text>
        <Checkbox
          label={t("quiz.independence.confirm")}
          checked={quiz.confirmed}
          onChange={(e) => quiz.confirm(e.currentTarget.checked)}
          mb="lg"
          size="md"
          classNames={{ input: classes.checkInput }}
        />
        <Button onClick={quiz.start} disabled={!quiz.confirmed} size="md">
          {t("quiz.goToQuestion")}
        </Button>
      </Paper>
    );
  } else if (wantsQuestion) {
    // While the next question loads, never show the previous one: its answers are gone.
    if (loadingQuestion) body = <Skeleton h={280} />;
    else if (!question) {
      body = (
        <Alert color="teal" icon={<IconCheck />}>
          <Text mb="sm">{t("quiz.done")}</Text>
          {backButton(false, focusTarget)}
        </Alert>
      );
    } else {
      const Choice = question.type === "single" ? Radio.Card : Checkbox.Card;
      const Indicator = question.type === "single" ? Radio.Indicator : Checkbox.Indicator;
      const cards = (
        <Stack gap="sm">
          {question.answers.map((a) => (
            <Choice
              key={a.id}
              value={String(a.id)}
              className={classes.answer}
              data-checked={selected.includes(a.id) || undefined}
            >
              <Group wrap="nowrap" gap="sm" align="flex-start">
                <Indicator className={classes.indicator} />
                <Text className={classes.answerText}>{a.text}</Text>
              </Group>
            </Choice>
          ))}
        </Stack>
      );
      body = (
        <Paper component="form" onSubmit={submit} withBorder p={{ base: "md", sm: "lg" }}>
          <QuestionHeader question={question} />
          <Group justify="space-between" align="flex-start" wrap="nowrap" mb="md" gap="sm">
            <Title
              order={2}
              fz={{ base: "h4", sm: "h3" }}
              data-testid="question-text"
              tabIndex={-1}
              ref={focusTarget}
              className={classes.focusTitle}
            >
              {question.text}
            </Title>
            <ReadAloud
              key={question.id}
              testId="read-aloud-question"
              parts={[
                question.text,
                ...question.answers.map((a, i) => `${t("quiz.readAloud.answer", { n: i + 1 })}: ${a.text}`),
              ]}
            />
          </Group>
          {question.type === "single" ? (
            <Radio.Group
              value={selected[0] ? String(selected[0]) : null}
              onChange={(v) => quiz.select([Number(v)])}
              aria-label={question.text}
            >
              {cards}
            </Radio.Group>
          ) : (
            <Checkbox.Group
              value={selected.map(String)}
              onChange={(v) => quiz.select(v.map(Number))}
              aria-label={question.text}
            >
              {cards}
            </Checkbox.Group>
          )}
          <ActionBar>
            <Button type="submit" size="md" disabled={!quiz.canSend || !question} loading={phase === "sending"}>
              {t("quiz.continue")}
            </Button>
          </ActionBar>
        </Paper>
      );
    }
  } else if (phase === "explanation" && result && asked) {
    body = (
      <Explanation
        key={asked.id}
        asked={asked}
        result={result}
        chosen={selected}
        focusTarget={focusTarget}
        onGoOn={quiz.goOn}
      />
    );
  } else if (phase === "result" && result?.finished) {
    const f = result.finished;
    const link = f.link;
    // One control per destination: the server's 'to the training' is the back button below.
    const certificate = link?.href.startsWith("/api/") ? link : null;
    const otherLink = link && !certificate && link.href !== trainingPath ? link : null;
    const primary: ReactNode = !f.success ? (
      <Button onClick={quiz.nextRound} ref={focusTarget}>
        {t("quiz.result.nextRound")}
      </Button>
    ) : nextQuestionnaire ? (
      <Button component={Link} to={quizPath(nextQuestionnaire)} ref={focusTarget}>
        {t("quiz.result.nextQuestionnaire", { name: questionnaireLabel(t, nextQuestionnaire.name) })}
      </Button>
    ) : certificate ? (
      <Button
        component="a"
        {...freshLink(() => authedHref(certificate.href))}
        target="_blank"
        rel="noopener"
        ref={focusTarget}
      >
        {t(certificate.text)}
      </Button>
    ) : null;
    body = (
      <Paper withBorder p={{ base: "md", sm: "xl" }} ta="center" data-testid="quiz-result">
        <Title order={2} mb="sm" className={classes.verdict} data-right={f.success || undefined}>
          {f.success ? t("quiz.result.success") : t("quiz.result.failure")}
        </Title>
        <Text mb="lg">{t(f.message, f.values)}</Text>
        <Stack align="stretch" gap="sm" className={classes.resultActions}>
          {primary}
          {otherLink && (
            <Button component={Link} to={otherLink.href} variant="light">
              {t(otherLink.text)}
            </Button>
          )}
          {backButton(!primary, primary ? undefined : focusTarget)}
        </Stack>
      </Paper>
    );
  }

  return (
    <>
      <PageHeader title={title}>
        {practice && (
          <Badge variant="light" size="lg" data-testid="practice-mode">
            {t("quiz.practice")}
          </Badge>
        )}
      </PageHeader>
      {phase !== "intro" && !locked && training.data && (
        <>
          <Progress
            value={total > 0 ? (count / total) * 100 : 0}
            size="lg"
            radius="xl"
            mb="xs"
            aria-label={t("quiz.progress", { count, total })}
          />
          <Text size="sm" c="dimmed" mb="md">
            {t("quiz.progress", { count, total })}
          </Text>
        </>
      )}
      {body}
      {popup && <FeedbackPopup src={popup.src} right={popup.right} focusTarget={focusTarget} />}
    </>
  );
}

/** One quiz per questionnaire: moving on to the next questionnaire starts its quiz afresh. */
export default function QuizPage() {
  const { questionnaireId } = useParams();
  const practice = useSearchParams()[0].get("practice");
  return <Quiz key={`${questionnaireId}:${practice}`} />;
}

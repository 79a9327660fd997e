import { api, IDEMPOTENCY_KEY_HEADER, type Questionnaire, SOURCE_LANGUAGE } from "@carecampus/contract";
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  Progress,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { IconCheck, IconHelpCircle, IconLanguage, IconLock, IconWifiOff } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import confetti from "canvas-confetti";
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { authedHref, call, freshLink, showError, showSuccess } from "../../api/client";
import { answerKeys } from "../../api/idempotency";
import { ContentName } from "../../components/ContentName";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { pickFeedback } from "../../components/quiz/feedback";
import { ExplanationCard, FeedbackPopup, type FocusTarget, QuestionCard } from "../../components/quiz/QuizViews";
import classes from "../../components/quiz/quiz.module.css";
import { canReadAloud } from "../../components/quiz/ReadAloud";
import { useQuiz } from "../../components/quiz/useQuiz";
import { invalidateLearning } from "../../queries/learning";
import { useRequiredSession } from "../../session/store";
import {
  ANSWER_TIMEOUT_MS,
  answerSlot,
  dropAnswer,
  type KeptAnswer,
  keepAnswer,
  keptAnswer,
  unsent,
  untilSent,
} from "./answer-outbox";
import { questionnaireLabel } from "./labels";
import { OwnHelpNote } from "./OwnHelpNote";
import { useNextQuestion, useTraining } from "./queries";

/** Sends a help request after a confirmation; once one is open it says so instead (one per question). */
function HelpButton({ questionId, asked }: { questionId: number; asked: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [sent, setSent] = useState(asked);
  // After sending, the focus goes to the note that replaced the button (not to the page's body).
  const note = useRef<HTMLDivElement>(null);
  const [justSent, setJustSent] = useState(false);
  useEffect(() => {
    if (justSent) note.current?.focus();
  }, [justSent]);
  const send = useMutation({
    mutationFn: () => call(api.helpRequestCreate, { body: { question_id: questionId } }),
    // A failure: the client shows the error toast.
    onSuccess: () => {
      showSuccess(t("quiz.help.sent"));
      setSent(true);
      setJustSent(true);
      setOpen(false);
    },
  });
  if (sent) {
    return (
      <Badge
        variant="light"
        color="blue"
        size="lg"
        leftSection={<IconHelpCircle size={16} />}
        data-testid="help-asked"
        ref={note}
        tabIndex={-1}
      >
        <Text span size="xs" fw={600} style={{ whiteSpace: "normal" }}>
          {t("quiz.help.asked")}
        </Text>
      </Badge>
    );
  }
  return (
    <>
      {/* Words, not only a '?': the name starts with what is shown (WCAG 2.5.3). */}
      <Button
        variant="light"
        size="sm"
        leftSection={<IconHelpCircle size={20} aria-hidden />}
        onClick={() => setOpen(true)}
        aria-label={t("quiz.help.button")}
        data-testid="help-button"
        className={classes.helpButton}
      >
        {t("quiz.help.short")}
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={t("quiz.help.title")} centered>
        <Text mb="lg">{t("quiz.help.text")}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setOpen(false)}>
            {t("common.cancel")}
          </Button>
          <Button onClick={() => send.mutate()} loading={send.isPending}>
            {t("quiz.help.send")}
          </Button>
        </Group>
      </Modal>
    </>
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
  // Every answer carries an Idempotency-Key, the same on every resend of it: recorded once. An
  // answer that does not arrive is kept on the device and sent again until it does (answer-outbox.ts).
  const [answerKey] = useState(answerKeys);
  const slot = answerSlot(useRequiredSession().user.id, questionnaireId, practice);
  /** An answer is kept on the device and waits for the connection. */
  const [waiting, setWaiting] = useState(false);
  /** The answer a reload or an earlier visit left on the device (undefined: not read yet). */
  const [kept, setKept] = useState<KeptAnswer | null | undefined>(undefined);
  // Aborted when the quiz is left (made in the effect, so that React's development double
  // mount does not leave it aborted).
  const left = useRef(new AbortController());
  useEffect(() => {
    const controller = new AbortController();
    left.current = controller;
    return () => controller.abort();
  }, []);
  /** An answer of this quiz is on the device: only then is there one to delete after a send. */
  const stored = useRef(false);
  const forget = () => {
    if (!stored.current) return;
    stored.current = false;
    void dropAnswer(slot);
  };
  useEffect(() => {
    let current = true;
    void keptAnswer(slot).then((answer) => {
      if (!current) return;
      if (answer) stored.current = true;
      setKept(answer ?? null);
    });
    return () => {
      current = false;
    };
  }, [slot]);
  const sendAnswer = async (q: { id: number; round: number; lang?: string }, answers: number[]) => {
    const headers = answerKey.headers(q, answers);
    const send = () =>
      call(api.answerSubmit, {
        params: { topic: topicId, training: trainingId, q: questionnaireId, question: q.id },
        // The explanation in the language the question was shown in.
        query: { practice: practice ? "true" : undefined, lang: q.lang },
        body: answers,
        headers,
        silent: true,
        signal: AbortSignal.timeout(ANSWER_TIMEOUT_MS),
      });
    try {
      const result = await send();
      forget();
      return result;
    } catch (err) {
      if (!unsent(err)) {
        forget();
        showError(err);
        throw err;
      }
    }
    stored.current = true;
    await keepAnswer({ slot, key: headers[IDEMPOTENCY_KEY_HEADER] ?? "", questionId: q.id, round: q.round, answers });
    setWaiting(true);
    const { signal } = left.current;
    try {
      const result = await untilSent(send, signal);
      forget();
      return result;
    } catch (err) {
      // Left the quiz: the answer stays on the device for the next visit.
      if (!signal.aborted) {
        forget();
        showError(err);
      }
      throw err;
    } finally {
      if (!signal.aborted) setWaiting(false);
    }
  };
  const quiz = useQuiz({
    sendAnswer,
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
  // In the learner's content language (their profile's choice; else the server takes the interface's).
  const contentLanguage = useRequiredSession().user.content_language ?? undefined;
  const next = useNextQuestion(topicId, trainingId, questionnaireId, wantsQuestion, practice, contentLanguage);
  // A question in the learner's language can be switched to the German original and back (issue 31).
  const [originalOf, setOriginalOf] = useState<number | null>(null);
  const asSent = next.data?.question ?? null;
  const showOriginal = asSent !== null && asSent.lang !== SOURCE_LANGUAGE && originalOf === asSent.id;
  const original = useNextQuestion(
    topicId,
    trainingId,
    questionnaireId,
    wantsQuestion && showOriginal,
    practice,
    SOURCE_LANGUAGE,
  );
  const inGerman = original.data?.question;
  const question = showOriginal && inGerman?.id === asSent.id ? inGerman : asSent;
  const loadingQuestion = phase === "question" && (next.isPending || next.isFetching);

  // An answer left on the device by a reload or an earlier visit: the question it answers is shown
  // again with that choice and sent with its key; an answer to another question (the server has
  // it, its reply was lost) is sent in the background, where the server answers it from the key.
  const sameAnswer = (a: readonly number[], b: readonly number[]) =>
    a.length === b.length && a.every((id) => b.includes(id));
  useEffect(() => {
    if (!kept || phase !== "question" || loadingQuestion) return;
    if (question && question.id === kept.questionId && question.round === kept.round) {
      if (selected.length === 0) {
        answerKey.remember(question, kept.answers, kept.key);
        quiz.select(kept.answers);
      } else if (sameAnswer(selected, kept.answers)) {
        setKept(null);
        void quiz.send(question).catch(() => {});
      }
      return;
    }
    setKept(null);
    answerKey.remember({ id: kept.questionId, round: kept.round }, kept.answers, kept.key);
    void sendAnswer({ id: kept.questionId, round: kept.round }, kept.answers).then(
      () => invalidateLearning(queryClient),
      () => {},
    );
  });

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
    else if (waiting) focusKey = "waiting";
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

  const title = training.data ? (
    <ContentName name={training.data.training.name} lang={training.data.training.name_lang} />
  ) : (
    ""
  );
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
      body = (
        <QuestionCard
          question={question}
          selected={selected}
          onSelect={quiz.select}
          onSubmit={() => void quiz.send(question)}
          canSend={quiz.canSend}
          sending={phase === "sending"}
          focusTarget={focusTarget}
          languageSwitch={
            asSent && asSent.lang !== SOURCE_LANGUAGE ? (
              <Button
                variant="subtle"
                size="compact-sm"
                mb="xs"
                leftSection={<IconLanguage size={16} aria-hidden />}
                onClick={() => setOriginalOf(showOriginal ? null : asSent.id)}
                data-testid="language-switch"
              >
                {showOriginal ? t("quiz.showTranslation") : t("quiz.showOriginal")}
              </Button>
            ) : undefined
          }
        />
      );
      if (waiting) {
        body = (
          <>
            {body}
            <Alert
              color="orange"
              mt="md"
              role="status"
              tabIndex={-1}
              ref={focusTarget}
              data-testid="answer-waiting"
              icon={<IconWifiOff aria-hidden />}
            >
              {t("quiz.waiting")}
            </Alert>
          </>
        );
      }
    }
  } else if (phase === "explanation" && result && asked) {
    body = (
      <ExplanationCard
        key={asked.id}
        asked={asked}
        result={result}
        selected={selected}
        focusTarget={focusTarget}
        onGoOn={quiz.goOn}
        action={<HelpButton key={asked.id} questionId={asked.id} asked={result.help.open} />}
      >
        <OwnHelpNote help={result.help} />
      </ExplanationCard>
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

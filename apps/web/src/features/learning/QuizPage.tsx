import { endpoints } from "@carecampus/contract";
import {
  ActionIcon,
  Alert,
  Anchor,
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
  Tooltip,
} from "@mantine/core";
import { IconCheck, IconHelpCircle } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import confetti from "canvas-confetti";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { authedHref, call, freshLink, showSuccess } from "../../api/client";
import { PageHeader } from "../../components/PageHeader";
import { pickFeedback } from "../../components/quiz/feedback";
import { ExplanationCard, FeedbackPopup, QuestionCard } from "../../components/quiz/QuizViews";
import { useQuiz } from "../../components/quiz/useQuiz";
import { invalidateLearning } from "../../queries/learning";
import { OwnHelpNote } from "./OwnHelpNote";
import { useNextQuestion, useTraining } from "./queries";

/** Sends a help request after a confirmation; once one is open it says so instead (one per question). */
function HelpButton({ questionId, asked }: { questionId: number; asked: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [sent, setSent] = useState(asked);
  const send = async () => {
    setBusy(true);
    try {
      await call(endpoints.helpRequestCreate, { body: { question_id: questionId } });
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
      <Modal opened={open} onClose={() => setOpen(false)} title={t("quiz.help.title")} centered>
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

export default function QuizPage() {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const params = useParams();
  const topicId = Number(params.topicId);
  const trainingId = Number(params.trainingId);
  const questionnaireId = Number(params.questionnaireId);
  const trainingPath = `/topic/${topicId}/training/${trainingId}`;
  const practice = useSearchParams()[0].get("practice") === "true";

  const training = useTraining(topicId, trainingId);
  const quiz = useQuiz({
    sendAnswer: (q, answers) =>
      call(endpoints.answerSubmit, {
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
  // The next-question query runs while a question is on screen (also during the pop-up).
  const wantsQuestion = phase === "question" || phase === "sending" || phase === "feedback";
  const next = useNextQuestion(topicId, trainingId, questionnaireId, wantsQuestion, practice);
  const question = next.data?.question ?? null;

  const title = training.data ? training.data.training.name : "";
  const count = result?.count ?? next.data?.count ?? 0;
  const total = result?.total ?? next.data?.total ?? 0;

  let body: React.ReactNode;
  if (phase === "intro") {
    body = (
      <Paper withBorder p="lg">
        <Title order={2} size="h3" mb="sm">
          {t("quiz.independence.title")}
        </Title>
        <Text mb="md">{t("quiz.independence.text")}</Text>
        <Checkbox
          label={t("quiz.independence.confirm")}
          checked={quiz.confirmed}
          onChange={(e) => quiz.confirm(e.currentTarget.checked)}
          mb="lg"
          size="md"
        />
        <Button onClick={quiz.start} disabled={!quiz.confirmed} size="md">
          {t("quiz.goToQuestion")}
        </Button>
      </Paper>
    );
  } else if (wantsQuestion) {
    // While the next question loads, never show the previous one: its answers are gone.
    if (phase === "question" && (next.isPending || next.isFetching)) body = <Skeleton h={280} />;
    else if (!question) {
      body = (
        <Alert color="teal" icon={<IconCheck />}>
          <Text mb="sm">{t("quiz.done")}</Text>
          <Button component={Link} to={trainingPath} variant="light">
            {t("quiz.result.back")}
          </Button>
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
        />
      );
    }
  } else if (phase === "explanation" && result && asked) {
    body = (
      <ExplanationCard
        asked={asked}
        result={result}
        selected={selected}
        onGoOn={quiz.goOn}
        action={<HelpButton key={asked.id} questionId={asked.id} asked={result.help.open} />}
      >
        <OwnHelpNote help={result.help} />
      </ExplanationCard>
    );
  } else if (phase === "result" && result?.finished) {
    const f = result.finished;
    const link = f.link;
    body = (
      <Paper withBorder p="xl" ta="center" data-testid="quiz-result">
        <Title order={2} mb="sm" c={f.success ? "teal" : "orange"}>
          {f.success ? t("quiz.result.success") : t("quiz.result.failure")}
        </Title>
        <Text mb="lg">{t(f.message, f.values)}</Text>
        <Stack align="center" gap="sm">
          {link &&
            (link.href.startsWith("/api/") ? (
              <Button component="a" {...freshLink(() => authedHref(link.href))} target="_blank" rel="noopener">
                {t(link.text)}
              </Button>
            ) : (
              <Anchor component={Link} to={link.href}>
                {t(link.text)}
              </Anchor>
            ))}
          {!f.success && <Button onClick={quiz.nextRound}>{t("quiz.result.nextRound")}</Button>}
          <Button component={Link} to={trainingPath} variant="default">
            {t("quiz.result.back")}
          </Button>
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
      {phase !== "intro" && (
        <Progress
          value={total > 0 ? (count / total) * 100 : 0}
          size="lg"
          radius="xl"
          mb="xs"
          aria-label={t("quiz.progress", { count, total })}
        />
      )}
      {phase !== "intro" && (
        <Text size="sm" c="dimmed" mb="md">
          {t("quiz.progress", { count, total })}
        </Text>
      )}
      {body}
      {popup && <FeedbackPopup src={popup.src} right={popup.right} />}
    </>
  );
}

import { type AuthoringQuestionnaire, type Question, QuizFinishedKey, SOURCE_LANGUAGE } from "@carecampus/contract";
import { Button, Modal, Paper, Progress, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { pickFeedback } from "../../components/quiz/feedback";
import {
  ExplanationCard,
  FeedbackPopup,
  type FocusTarget,
  QuestionCard,
  type ShownResult,
} from "../../components/quiz/QuizViews";
import { useQuiz } from "../../components/quiz/useQuiz";
import { useFocusBack } from "../../components/useFocusBack";

/**
 * The questionnaire as its learners will see it: the quiz screen's own views and pop-ups, one
 * round through every question, answered here without recording anything. A phone-width frame
 * shows it as on a phone.
 */
export function PreviewModal({
  questionnaire,
  onClose,
}: {
  questionnaire: AuthoringQuestionnaire;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  useFocusBack();
  const phone = useMediaQuery("(max-width: 36em)");
  const [width, setWidth] = useState<"phone" | "wide">("wide");
  const [index, setIndex] = useState(0);
  const total = questionnaire.questions.length;
  const [right, setRight] = useState(0);
  // Answers in a stable shuffled order, as the learner gets them.
  const shown: Question[] = useMemo(
    () =>
      questionnaire.questions.map((q) => ({
        id: q.id,
        text: q.text,
        type: q.type,
        answers: [...q.answers]
          .sort((a, b) => ((a.id * 7919) % 97) - ((b.id * 7919) % 97))
          .map((a) => ({ id: a.id, text: a.text })),
        media: null,
        explanation: null,
        hint: null,
        round: 1,
        count: 0,
        total,
        lang: SOURCE_LANGUAGE,
      })),
    [questionnaire, total],
  );
  const quiz = useQuiz<ShownResult>({
    sendAnswer: async (question, chosen) => {
      const q = questionnaire.questions.find((x) => x.id === question.id);
      const rightIds = (q?.answers ?? []).filter((a) => a.correct).map((a) => a.id);
      const isCorrect = chosen.length === rightIds.length && chosen.every((id) => rightIds.includes(id));
      if (isCorrect) setRight((n) => n + 1);
      const last = index === total - 1;
      return {
        answers_correct: rightIds,
        is_correct: isCorrect,
        explanation: q?.explanation ?? "",
        hint: q?.hint ?? null,
        media: q?.media ?? null,
        lang: SOURCE_LANGUAGE,
        finished: last ? { success: true, message: QuizFinishedKey.questionnaire, values: {}, link: null } : null,
      };
    },
    feedback: (ok) => pickFeedback(ok, i18n.language),
    loadNext: () => setIndex((i) => i + 1),
  });
  const question = shown[index];
  // As in the learner's quiz, the focus moves to what appears: the question, the pop-up, the verdict.
  const focusTarget = useCallback<FocusTarget>((el) => {
    el?.focus({ preventScroll: true });
    el?.scrollIntoView({ block: "nearest" });
  }, []);
  let body: React.ReactNode = null;
  if (quiz.phase === "intro") {
    body = (
      <Paper withBorder p="lg">
        <Text mb="md">{t("authoring.preview.intro")}</Text>
        <Button
          onClick={() => {
            quiz.confirm(true);
            quiz.start();
          }}
          data-autofocus
        >
          {t("quiz.goToQuestion")}
        </Button>
      </Paper>
    );
  } else if ((quiz.phase === "question" || quiz.phase === "sending" || quiz.phase === "feedback") && question) {
    body = (
      <QuestionCard
        key={question.id}
        question={question}
        selected={quiz.selected}
        onSelect={quiz.select}
        onSubmit={() => void quiz.send(question)}
        canSend={quiz.canSend}
        sending={quiz.phase === "sending"}
        focusTarget={focusTarget}
      />
    );
  } else if (quiz.phase === "explanation" && quiz.result && quiz.asked) {
    body = (
      <ExplanationCard
        key={quiz.asked.id}
        asked={quiz.asked}
        result={quiz.result}
        selected={quiz.selected}
        onGoOn={quiz.goOn}
        focusTarget={focusTarget}
      />
    );
  } else {
    body = (
      <Paper withBorder p="xl" ta="center" data-testid="preview-end">
        <Title order={2} size="h3" mb="sm">
          {t("authoring.preview.end")}
        </Title>
        <Text mb="md">{t("authoring.preview.score", { count: right, total })}</Text>
        <Button onClick={onClose}>{t("authoring.preview.close")}</Button>
      </Paper>
    );
  }
  return (
    <Modal opened onClose={onClose} title={t("authoring.preview.title")} size="xl" fullScreen={phone}>
      <Stack gap="sm">
        {!phone && (
          <SegmentedControl
            aria-label={t("authoring.preview.width")}
            value={width}
            onChange={(v) => setWidth(v === "phone" ? "phone" : "wide")}
            data={[
              { value: "wide", label: t("authoring.preview.wide") },
              { value: "phone", label: t("authoring.preview.phone") },
            ]}
          />
        )}
        <div
          style={{ maxWidth: width === "phone" && !phone ? 360 : undefined, margin: "0 auto", width: "100%" }}
          data-testid="preview"
        >
          {quiz.phase !== "intro" && (
            <>
              <Progress
                value={total ? (right / total) * 100 : 0}
                size="lg"
                radius="xl"
                mb="xs"
                aria-label={t("quiz.progress", { count: right, total })}
              />
              <Text size="sm" c="dimmed" mb="md">
                {t("quiz.progress", { count: right, total })}
              </Text>
            </>
          )}
          {body}
        </div>
      </Stack>
      {quiz.popup && <FeedbackPopup src={quiz.popup.src} right={quiz.popup.right} focusTarget={focusTarget} />}
    </Modal>
  );
}

import {
  type AuthoringQuestionnaire,
  api,
  type Question,
  type QuestionTranslation,
  QuizFinishedKey,
  SOURCE_LANGUAGE,
} from "@carecampus/contract";
import { Button, Modal, NativeSelect, Paper, Progress, SegmentedControl, Stack, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { useQueries } from "@tanstack/react-query";
import { useCallback, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { call } from "../../api/client";
import { languageName } from "../../components/languageName";
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
import { useContentLanguages } from "../../queries/content-languages";

/** A question's translation into `lang` when it covers the question's every answer (as the editor wrote it, any status). */
function wholeTranslation(
  q: AuthoringQuestionnaire["questions"][number],
  written: QuestionTranslation | undefined,
): QuestionTranslation | null {
  if (!written) return null;
  const complete = q.answers.every((a) => (written.answers.find((b) => b.id === a.id)?.text ?? "").trim() !== "");
  return complete && written.text.trim() !== "" ? written : null;
}

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
  // The preview in a content language (issue 31): each question as translated, German where it is not (whole).
  const languages = useContentLanguages().data?.languages ?? [SOURCE_LANGUAGE];
  const [lang, setLang] = useState<string>(SOURCE_LANGUAGE);
  const written = useQueries({
    queries:
      lang === SOURCE_LANGUAGE
        ? []
        : questionnaire.questions.map((q) => ({
            // The translation editor's own key: what it saves shows here at once.
            queryKey: ["authoring", "translations", q.id],
            queryFn: () => call(api.authoringQuestionTranslations, { params: { id: q.id } }),
          })),
  });
  const loading = written.some((w) => w.isPending);
  const translations = questionnaire.questions.map((q, i) =>
    wholeTranslation(
      q,
      written[i]?.data?.translations.find((x) => x.lang === lang),
    ),
  );
  return (
    <Modal opened onClose={onClose} title={t("authoring.preview.title")} size="xl" fullScreen={phone}>
      <Stack gap="sm">
        {languages.length > 1 && (
          <NativeSelect
            label={t("authoring.preview.language")}
            value={lang}
            onChange={(e) => setLang(e.currentTarget.value)}
            data={languages.map((l) => ({ value: l, label: languageName(l, i18n.language) }))}
            maw={360}
          />
        )}
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
          {!loading && (
            <PreviewRun
              // Another language starts the preview again.
              key={lang}
              questionnaire={questionnaire}
              lang={lang}
              translations={translations}
              onClose={onClose}
            />
          )}
        </div>
      </Stack>
    </Modal>
  );
}

/** One round through the questionnaire in `lang`, answered here without recording anything. */
function PreviewRun({
  questionnaire,
  lang,
  translations,
  onClose,
}: {
  questionnaire: AuthoringQuestionnaire;
  lang: string;
  translations: (QuestionTranslation | null)[];
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const [index, setIndex] = useState(0);
  const total = questionnaire.questions.length;
  const [right, setRight] = useState(0);
  // Answers in a stable shuffled order, as the learner gets them.
  const shown: Question[] = useMemo(
    () =>
      questionnaire.questions.map((q, i) => {
        const tr = translations[i];
        return {
          id: q.id,
          text: tr ? tr.text : q.text,
          type: q.type,
          answers: [...q.answers]
            .sort((a, b) => ((a.id * 7919) % 97) - ((b.id * 7919) % 97))
            .map((a) => ({ id: a.id, text: tr?.answers.find((x) => x.id === a.id)?.text ?? a.text })),
          media: null,
          explanation: null,
          hint: null,
          round: 1,
          count: 0,
          total,
          lang: tr ? lang : SOURCE_LANGUAGE,
        };
      }),
    [questionnaire, total, translations, lang],
  );
  const quiz = useQuiz<ShownResult>({
    sendAnswer: async (question, chosen) => {
      const at = questionnaire.questions.findIndex((x) => x.id === question.id);
      const q = questionnaire.questions[at];
      const tr = translations[at] ?? null;
      const rightIds = (q?.answers ?? []).filter((a) => a.correct).map((a) => a.id);
      const isCorrect = chosen.length === rightIds.length && chosen.every((id) => rightIds.includes(id));
      if (isCorrect) setRight((n) => n + 1);
      const last = index === total - 1;
      return {
        answers_correct: rightIds,
        is_correct: isCorrect,
        explanation: tr ? tr.explanation : (q?.explanation ?? ""),
        hint: tr ? tr.hint : (q?.hint ?? null),
        media: q?.media ?? null,
        lang: tr ? lang : SOURCE_LANGUAGE,
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
  const untranslated = lang !== SOURCE_LANGUAGE && question && translations[index] === null;
  const status = lang !== SOURCE_LANGUAGE && question ? translations[index] : null;
  return (
    <>
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
      {quiz.phase !== "intro" && (untranslated || status) && (
        <Text size="sm" c="dimmed" mb="xs" data-testid="preview-translation">
          {untranslated
            ? t("authoring.preview.german")
            : t("authoring.preview.status", {
                status: status?.outdated
                  ? t("authoring.translations.outdatedShort")
                  : t(`authoring.translations.statuses.${status?.status ?? "draft"}`),
              })}
        </Text>
      )}
      {body}
      {quiz.popup && <FeedbackPopup src={quiz.popup.src} right={quiz.popup.right} focusTarget={focusTarget} />}
    </>
  );
}

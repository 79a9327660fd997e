import { type AnswerResult, api, contentLanguageTag, isRightToLeft, type Question } from "@carecampus/contract";
import { Alert, Box, Button, Checkbox, Group, Paper, Radio, Stack, Text, Title } from "@mantine/core";
import { IconCheck, IconX } from "@tabler/icons-react";
import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl } from "../../api/client";
import { settings } from "../../app/settings";
import { SafeHtml } from "../SafeHtml";
import { ExplanationImage } from "./ExplanationImage";
import classes from "./quiz.module.css";
import { htmlText, ReadAloud } from "./ReadAloud";

/*
 * The quiz screen's views (spec §2 'Quiz screen'): the question, the pop-up and the
 * explanation. The learner's quiz and the editor's preview show the very same components; the
 * learner's quiz adds its help button and the staff's replies through the slots.
 */

/** Receives the element that takes the focus when it appears (the screen's new content). */
export type FocusTarget = (el: HTMLElement | null) => void;

/**
 * Above a question: whether one or several answers are right (unless the installation switched
 * that off: show-question-type) and the round.
 */
function QuestionHeader({ question }: { question: Pick<Question, "type" | "round"> }) {
  const { t } = useTranslation();
  return (
    <Group
      justify={settings["show-question-type"] ? "space-between" : "flex-end"}
      align="flex-start"
      wrap="nowrap"
      mb="xs"
    >
      {settings["show-question-type"] && (
        <Text size="sm" c="dimmed" data-testid="question-type">
          {question.type === "multiple" ? t("quiz.multiple") : t("quiz.single")}
        </Text>
      )}
      <Text size="sm" c="dimmed" style={{ whiteSpace: "nowrap" }}>
        {t("quiz.round", { round: question.round })}
      </Text>
    </Group>
  );
}

export interface QuestionCardProps {
  question: Question;
  selected: number[];
  onSelect: (ids: number[]) => void;
  onSubmit: () => void;
  canSend: boolean;
  sending: boolean;
  focusTarget?: FocusTarget;
  /** "Original anzeigen": shown under the question when it comes translated or as the original asked for. */
  languageSwitch?: ReactNode;
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

export function QuestionCard({
  question,
  selected,
  onSelect,
  onSubmit,
  canSend,
  sending,
  focusTarget,
  languageSwitch,
}: QuestionCardProps) {
  const { t } = useTranslation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
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
  return (
    <Paper component="form" onSubmit={submit} withBorder p={{ base: "md", sm: "lg" }}>
      <QuestionHeader question={question} />
      {languageSwitch}
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="md" gap="sm">
        <Title
          order={2}
          fz={{ base: "h4", sm: "h3" }}
          data-testid="question-text"
          lang={contentLanguageTag(question.lang)}
          dir={isRightToLeft(question.lang) ? "rtl" : undefined}
          tabIndex={-1}
          ref={focusTarget}
          className={classes.focusTitle}
        >
          {question.text}
        </Title>
        <ReadAloud
          key={question.id}
          testId="read-aloud-question"
          lang={question.lang}
          parts={[
            question.text,
            ...question.answers.map((a, i) => `${t("quiz.readAloud.answer", { n: i + 1 })}: ${a.text}`),
          ]}
        />
      </Group>
      <div lang={contentLanguageTag(question.lang)} dir={isRightToLeft(question.lang) ? "rtl" : undefined}>
        {question.type === "single" ? (
          <Radio.Group
            value={selected[0] ? String(selected[0]) : null}
            onChange={(v) => onSelect([Number(v)])}
            aria-label={question.text}
          >
            {cards}
          </Radio.Group>
        ) : (
          <Checkbox.Group
            value={selected.map(String)}
            onChange={(v) => onSelect(v.map(Number))}
            aria-label={question.text}
          >
            {cards}
          </Checkbox.Group>
        )}
      </div>
      <ActionBar>
        <Button type="submit" size="md" disabled={!canSend} loading={sending}>
          {t("quiz.continue")}
        </Button>
      </ActionBar>
    </Paper>
  );
}

export type ShownResult = Pick<
  AnswerResult,
  "answers_correct" | "is_correct" | "explanation" | "hint" | "media" | "finished"
> &
  Partial<Pick<AnswerResult, "lang">>;

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

export interface ExplanationCardProps {
  asked: Question;
  result: ShownResult;
  selected: number[];
  /** Beside the verdict: the help button of the learner's quiz. */
  action?: ReactNode;
  /** Below the explanation: staff replies to the learner's help requests. */
  children?: ReactNode;
  onGoOn: () => void;
  focusTarget?: FocusTarget;
}

/** The media's address, with the session token (the learner's and the editor's preview alike). */
const mediaUrl = (media: NonNullable<ShownResult["media"]>) =>
  media.type === "image"
    ? authedUrl(api.staticImage, { params: { id: media.id } })
    : authedUrl(api.staticVideo, { params: { id: media.id } });

export function ExplanationCard({
  asked,
  result,
  selected,
  action,
  children,
  onGoOn,
  focusTarget,
}: ExplanationCardProps) {
  const { t } = useTranslation();
  const right = new Set(result.answers_correct);
  const multiple = asked.type === "multiple";
  const verdict = result.is_correct ? t("quiz.right") : t("quiz.wrong");
  const rows = asked.answers.map((a) => ({ ...a, mark: markOf(a.id, right, selected, multiple) }));
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
          {action}
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
      {result.media?.type === "image" && <ExplanationImage src={mediaUrl(result.media)} />}
      {result.media?.type === "video" && (
        // biome-ignore lint/a11y/useMediaCaption: the training videos carry no speech
        <video
          src={mediaUrl(result.media)}
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
          lang={result.lang}
          parts={[
            result.hint ? `${t("quiz.hint")}: ${result.hint}` : "",
            t("quiz.explanation"),
            htmlText(result.explanation),
          ]}
        />
      </Group>
      <div
        lang={result.lang && contentLanguageTag(result.lang)}
        dir={result.lang && isRightToLeft(result.lang) ? "rtl" : undefined}
      >
        <SafeHtml html={result.explanation} />
      </div>
      {children}
      <ActionBar>
        <Button size="md" onClick={onGoOn}>
          {result.finished ? t("quiz.finish") : t("quiz.nextQuestion")}
        </Button>
      </ActionBar>
    </Paper>
  );
}

export function FeedbackPopup({
  src,
  right,
  focusTarget,
}: {
  src: string | undefined;
  right: boolean;
  focusTarget?: FocusTarget;
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

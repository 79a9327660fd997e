import { type AnswerResult, api, type Question } from "@carecampus/contract";
import { Alert, Box, Button, Checkbox, Group, Image, Paper, Radio, Stack, Text, Title } from "@mantine/core";
import { IconCheck, IconX } from "@tabler/icons-react";
import type { FormEvent, ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl } from "../../api/client";
import { settings } from "../../app/settings";
import { SafeHtml } from "../SafeHtml";
import classes from "./quiz.module.css";

/*
 * The quiz screen's views (spec §2 'Quiz screen'): the question, the pop-up and the
 * explanation. The learner's quiz and the editor's preview show the very same components.
 */

/**
 * Above a question: whether one or several answers are right (unless the installation switched
 * that off: show-question-type) and the round.
 */
export function QuestionHeader({ question }: { question: Pick<Question, "type" | "round"> }) {
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
      <Text size="sm" c="dimmed">
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
}

export function QuestionCard({ question, selected, onSelect, onSubmit, canSend, sending }: QuestionCardProps) {
  const { t } = useTranslation();
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <Paper component="form" onSubmit={submit} withBorder p={{ base: "md", sm: "lg" }}>
      <QuestionHeader question={question} />
      <Title order={2} size="h3" mb="md" data-testid="question-text">
        {question.text}
      </Title>
      {question.type === "single" ? (
        <Radio.Group
          value={selected[0] ? String(selected[0]) : null}
          onChange={(v) => onSelect([Number(v)])}
          aria-label={question.text}
        >
          <Stack gap="sm">
            {question.answers.map((a) => (
              <Radio.Card
                key={a.id}
                value={String(a.id)}
                className={classes.answer}
                data-checked={selected.includes(a.id) || undefined}
              >
                <Group wrap="nowrap" gap="sm">
                  <Radio.Indicator />
                  <Text>{a.text}</Text>
                </Group>
              </Radio.Card>
            ))}
          </Stack>
        </Radio.Group>
      ) : (
        <Checkbox.Group
          value={selected.map(String)}
          onChange={(v) => onSelect(v.map(Number))}
          aria-label={question.text}
        >
          <Stack gap="sm">
            {question.answers.map((a) => (
              <Checkbox.Card
                key={a.id}
                value={String(a.id)}
                className={classes.answer}
                data-checked={selected.includes(a.id) || undefined}
              >
                <Group wrap="nowrap" gap="sm">
                  <Checkbox.Indicator />
                  <Text>{a.text}</Text>
                </Group>
              </Checkbox.Card>
            ))}
          </Stack>
        </Checkbox.Group>
      )}
      <Group justify="flex-end" mt="lg">
        <Button type="submit" size="md" disabled={!canSend} loading={sending}>
          {t("quiz.continue")}
        </Button>
      </Group>
    </Paper>
  );
}

export type ShownResult = Pick<
  AnswerResult,
  "answers_correct" | "is_correct" | "explanation" | "hint" | "media" | "finished"
>;

export interface ExplanationCardProps {
  asked: Question;
  result: ShownResult;
  selected: number[];
  /** Beside the verdict: the help button of the learner's quiz. */
  action?: ReactNode;
  /** Below the explanation: staff replies to the learner's help requests. */
  children?: ReactNode;
  onGoOn: () => void;
  /** The media's address (the learner's session token; the editor's preview alike). */
  mediaUrl?: (media: NonNullable<ShownResult["media"]>) => string;
}

const defaultMediaUrl = (media: NonNullable<ShownResult["media"]>) =>
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
  mediaUrl = defaultMediaUrl,
}: ExplanationCardProps) {
  const { t } = useTranslation();
  const right = new Set(result.answers_correct);
  return (
    <Paper withBorder p={{ base: "md", sm: "lg" }} data-testid="explanation">
      <Group justify="space-between" wrap="nowrap" mb="sm">
        <Group gap="xs">
          {result.is_correct ? (
            <IconCheck color="var(--mantine-color-teal-6)" />
          ) : (
            <IconX color="var(--mantine-color-orange-6)" />
          )}
          <Title order={2} size="h3" c={result.is_correct ? "teal" : "orange"}>
            {result.is_correct ? t("quiz.right") : t("quiz.wrong")}
          </Title>
        </Group>
        {action}
      </Group>
      <Text fw={600} mb="sm">
        {asked.text}
      </Text>
      <Stack gap="xs" mb="md">
        {asked.answers.map((a) => (
          <Box
            key={a.id}
            className={classes.answer}
            data-right={right.has(a.id) || undefined}
            data-wrong={(!right.has(a.id) && selected.includes(a.id)) || undefined}
          >
            <Group gap="xs" wrap="nowrap">
              {right.has(a.id) ? (
                <IconCheck size={18} color="var(--mantine-color-teal-7)" aria-label={t("quiz.rightAnswer")} />
              ) : (
                <IconX size={18} opacity={0.4} />
              )}
              <Text>{a.text}</Text>
            </Group>
          </Box>
        ))}
      </Stack>
      {result.media?.type === "image" && <Image src={mediaUrl(result.media)} maw={560} radius="md" mb="md" alt="" />}
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
      <Title order={3} size="h5" mb={4}>
        {t("quiz.explanation")}
      </Title>
      <SafeHtml html={result.explanation} />
      {children}
      <Group justify="flex-end" mt="lg">
        <Button size="md" onClick={onGoOn} data-autofocus>
          {result.finished ? t("quiz.finish") : t("quiz.nextQuestion")}
        </Button>
      </Group>
    </Paper>
  );
}

export function FeedbackPopup({ src, right }: { src: string | undefined; right: boolean }) {
  const { t } = useTranslation();
  return (
    <div className={classes.popup} role="status" aria-live="assertive" data-testid="feedback-popup">
      {src ? (
        <img src={src} alt={right ? t("quiz.right") : t("quiz.wrong")} />
      ) : (
        <Title c="white">{right ? t("quiz.right") : t("quiz.wrong")}</Title>
      )}
    </div>
  );
}

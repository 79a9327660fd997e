import { api, type ErasureAnswer, formatIsoDay } from "@carecampus/contract";
import { Alert, Button, Group, List, Paper, Stack, Text, Title } from "@mantine/core";
import { IconDownload, IconShieldLock, IconTrash } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl, call, freshLink } from "../../api/client";
import { ConfirmDialog } from "../../components/ConfirmDialog";

/** The answer to an erasure request in plain words: what went, what stays, why and until when. */
function ErasureAnswerView({ answer }: { answer: ErasureAnswer }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  // The answer is what changed: the focus goes to it, so a screen reader reads it next.
  useEffect(() => ref.current?.focus(), []);
  const part = (p: string) => t(`privacy.part.${p}`);
  return (
    <Alert
      ref={ref}
      tabIndex={-1}
      color={answer.outcome === "erased" ? "teal" : "blue"}
      title={t("privacy.answerTitle")}
      data-testid="erasure-answer"
    >
      {answer.outcome === "erased" ? (
        <Text size="sm">{t("privacy.answer.erased")}</Text>
      ) : (
        <Stack gap="xs">
          {answer.erased.length > 0 ? (
            <div>
              <Text size="sm" fw={600}>
                {t("privacy.answer.erasedNow")}
              </Text>
              <List size="sm">
                {answer.erased.map((p) => (
                  <List.Item key={p}>{part(p)}</List.Item>
                ))}
              </List>
            </div>
          ) : (
            <Text size="sm">{t("privacy.answer.nothingNow")}</Text>
          )}
          <div>
            <Text size="sm" fw={600}>
              {t("privacy.answer.kept")}
            </Text>
            <List size="sm">
              {answer.kept.map((p) => (
                <List.Item key={p}>{part(p)}</List.Item>
              ))}
            </List>
          </div>
          {answer.grounds.includes("training-record") && <Text size="sm">{t("privacy.answer.groundTraining")}</Text>}
          {answer.grounds.includes("employment") && <Text size="sm">{t("privacy.answer.groundEmployment")}</Text>}
          <Text size="sm" fw={600}>
            {answer.kept_until
              ? t("privacy.answer.until", { date: formatIsoDay(answer.kept_until) ?? answer.kept_until })
              : t("privacy.answer.untilLeaving", { years: answer.retention_years })}
          </Text>
        </Stack>
      )}
    </Alert>
  );
}

/** "Meine Daten" (GDPR Art. 15, 17, 20): one's data as a ZIP, and an erasure request. */
export function PrivacyPanel() {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  /** Set by a confirmation: the closing dialog then leaves the focus to the answer. */
  const [answered, setAnswered] = useState(false);
  const [answer, setAnswer] = useState<{ n: number; value: ErasureAnswer } | null>(null);
  // The download carries the token in its URL (decision 9), renewed on each click.
  const downloadLink = freshLink(() => authedUrl(api.accountExport));
  return (
    <Paper withBorder p="lg" mt="lg" data-testid="privacy-panel" component="section" aria-labelledby="privacy-title">
      <Group gap="xs" mb="xs" wrap="nowrap">
        <IconShieldLock size={22} aria-hidden />
        <Title order={2} size="h4" id="privacy-title">
          {t("privacy.title")}
        </Title>
      </Group>
      <Text size="sm" mb="xs">
        {t("privacy.intro")}
      </Text>
      <Text size="sm" c="dimmed" mb="sm">
        {t("privacy.downloadHint")}
      </Text>
      <Group gap="sm">
        <Button component="a" {...downloadLink} download leftSection={<IconDownload size={16} aria-hidden />}>
          {t("privacy.download")}
        </Button>
        <Button
          variant="light"
          color="red"
          leftSection={<IconTrash size={16} aria-hidden />}
          onClick={() => {
            setAnswered(false);
            setConfirming(true);
          }}
          data-testid="erasure-request"
        >
          {t("privacy.request")}
        </Button>
      </Group>
      {answer && (
        <Stack mt="md">
          {/* A new answer is a new view: it takes the focus again. */}
          <ErasureAnswerView key={answer.n} answer={answer.value} />
        </Stack>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t("privacy.confirmTitle")}
        message={t("privacy.confirmText")}
        confirmLabel={t("privacy.confirm")}
        danger
        // Confirmed, the answer takes the focus (ErasureAnswerView); cancelled, the button gets it back.
        returnFocus={!answered}
        onConfirm={async () => {
          const value = await call(api.accountErasureRequest);
          setAnswered(true);
          setAnswer((before) => ({ n: (before?.n ?? 0) + 1, value }));
        }}
        onClose={() => setConfirming(false)}
      />
    </Paper>
  );
}

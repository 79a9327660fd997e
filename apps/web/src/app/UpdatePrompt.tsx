import { Affix, Button, Group, Paper, Text } from "@mantine/core";
import { IconRefresh } from "@tabler/icons-react";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useLocation, useMatch } from "react-router";
import { keptAnswerCount } from "../features/learning/answer-outbox";
import { applyUpdate, useUpdateWaiting } from "./update-state";

const QUIZ = "/topic/:topicId/training/:trainingId/questionnaire/:questionnaireId";

/**
 * "A new version is ready — reload": offered once a new version's service worker waits, never in
 * the middle of a questionnaire and never while a quiz answer waits on the device to be sent
 * (issue 30). A polite status message at the bottom: it does not take the focus from what the
 * user is doing; "Später" hides it until the next page.
 */
export default function UpdatePrompt() {
  const { t } = useTranslation();
  const waiting = useUpdateWaiting();
  const inQuiz = useMatch(QUIZ) !== null;
  const { key } = useLocation();
  const [answersWaiting, setAnswersWaiting] = useState(true);
  const [laterOn, setLaterOn] = useState<string | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: asked again on every page the user opens (key)
  useEffect(() => {
    if (!waiting || inQuiz) return;
    let live = true;
    void keptAnswerCount().then((count) => {
      if (live) setAnswersWaiting(count > 0);
    });
    return () => {
      live = false;
    };
  }, [waiting, inQuiz, key]);
  if (!waiting || inQuiz || answersWaiting || laterOn === key) return null;
  return (
    <Affix position={{ bottom: 12, left: 12, right: 12 }} zIndex={300}>
      <Paper withBorder shadow="md" p="sm" maw={560} mx="auto" role="status" data-testid="update-prompt">
        <Group justify="space-between" gap="xs">
          <Text size="sm" style={{ flex: "1 1 220px" }}>
            {t("session.updateReady")}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Button variant="subtle" size="sm" onClick={() => setLaterOn(key)}>
              {t("session.updateLater")}
            </Button>
            <Button size="sm" leftSection={<IconRefresh size={16} />} onClick={applyUpdate}>
              {t("session.updateNow")}
            </Button>
          </Group>
        </Group>
      </Paper>
    </Affix>
  );
}

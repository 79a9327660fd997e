import { api, dueNow, expiryColour, formatDate, type UserProgress } from "@carecampus/contract";
import { Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { IconPlayerPlay } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { call } from "../../api/client";
import { settings } from "../../app/settings";
import { expiryBadgeProps } from "../../components/ExpiryBadge";
import { learningKeys, useUserProgress } from "../../queries/learning";

type Due = UserProgress["training_progress"][number];

/** Where learning a training goes on: its first questionnaire not finished and not locked; none without questionnaires. */
async function resumePath(training: Due): Promise<string | null> {
  const detail = await call(api.trainingGet, { params: { topic: training.topic_id, training: training.id } });
  const next = detail.questionnaires.find((q) => !q.finished && !q.disabled) ?? detail.questionnaires[0];
  return next ? `/topic/${training.topic_id}/training/${training.id}/questionnaire/${next.id}` : null;
}

/** The first of the due trainings a questionnaire can make good, and where it goes on. */
async function resumeTarget(due: readonly Due[]): Promise<{ training: Due; path: string } | null> {
  for (const training of due) {
    const path = await resumePath(training);
    if (path) return { training, path };
  }
  return null;
}

/**
 * The start page's 'due now': the one to three trainings that are red or orange, most urgent
 * first, and one button that resumes the first of them a questionnaire can make good, where the
 * learner left it.
 */
export function DueNow({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useUserProgress(userId);
  const zone = settings["time-zone"];
  const due = data ? dueNow(data.training_progress, new Date(), zone) : [];
  const target = useQuery({
    queryKey: [...learningKeys.all, "due-resume", due.map((t) => t.id)],
    queryFn: () => resumeTarget(due),
    enabled: due.length > 0,
  });
  if (due.length === 0) return null;
  const status = (training: Due) => {
    if (!training.certificate) return { colour: "red" as const, label: t("home.due.missing") };
    const colour = expiryColour(training.certificate.expires_at, new Date(), zone);
    const date = formatDate(training.certificate.expires_at, zone);
    return { colour, label: colour === "red" ? t("home.due.expired", { date }) : t("home.due.expiring", { date }) };
  };
  return (
    <Card withBorder padding="md" mb="lg" data-testid="due-now" component="section" aria-labelledby="due-now-title">
      <Title order={2} size="h4" id="due-now-title" mb="sm">
        {t("home.due.title")}
      </Title>
      <Stack gap="xs" component="ul" m={0} p={0} style={{ listStyle: "none" }}>
        {due.map((training) => {
          const s = status(training);
          return (
            <Group key={training.id} component="li" justify="space-between" wrap="wrap" gap="xs" data-testid="due-item">
              <Text component={Link} to={`/topic/${training.topic_id}/training/${training.id}`} fw={600} td="underline">
                {training.name}
              </Text>
              <Badge {...expiryBadgeProps(s.colour)} size="md" style={{ textTransform: "none" }}>
                {s.label}
              </Badge>
            </Group>
          );
        })}
      </Stack>
      {target.data && (
        <Button
          mt="md"
          size="md"
          fullWidth
          h="auto"
          py="xs"
          // A long training name wraps instead of being cut on a phone.
          styles={{ label: { whiteSpace: "normal", textAlign: "center" } }}
          leftSection={<IconPlayerPlay size={18} />}
          onClick={() => navigate(target.data?.path ?? "/")}
          data-testid="due-resume"
        >
          {t("home.due.resume", { name: target.data.training.name })}
        </Button>
      )}
    </Card>
  );
}

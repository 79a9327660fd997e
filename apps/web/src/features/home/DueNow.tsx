import { dueNow, expiryColour, formatDate, type UserProgress } from "@carecampus/contract";
import { Badge, Button, Card, Group, Stack, Text, Title } from "@mantine/core";
import { IconPlayerPlay } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { settings } from "../../app/settings";
import { expiryBadgeProps } from "../../components/ExpiryBadge";
import { useUserProgress } from "../../queries/learning";

type Due = UserProgress["training_progress"][number];

/**
 * The start page's 'due now': the one to three trainings that are red or orange, most urgent
 * first (each one a questionnaire can make good), and one button that resumes the first where
 * the learner left it (the progress answer names that questionnaire: no further call).
 */
export function DueNow({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { data } = useUserProgress(userId);
  const zone = settings["time-zone"];
  const due = data ? dueNow(data.training_progress, new Date(), zone) : [];
  const first = due[0];
  if (!first) return null;
  const resume = `/topic/${first.topic_id}/training/${first.id}/questionnaire/${first.next_questionnaire_id}`;
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
      <Button
        mt="md"
        size="md"
        fullWidth
        h="auto"
        py="xs"
        // A long training name wraps instead of being cut on a phone.
        styles={{ label: { whiteSpace: "normal", textAlign: "center" } }}
        leftSection={<IconPlayerPlay size={18} />}
        onClick={() => navigate(resume)}
        data-testid="due-resume"
      >
        {t("home.due.resume", { name: first.name })}
      </Button>
    </Card>
  );
}

import type { Topic } from "@carecampus/contract";
import { Alert, Badge, Card, Group, Progress, SimpleGrid, Skeleton, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { ContentIcon } from "../../components/ContentIcon";
import { ContentName } from "../../components/ContentName";
import classes from "../../components/cards.module.css";
import { useTopics } from "../../queries/learning";

function TopicCard({ topic }: { topic: Topic }) {
  const { t } = useTranslation();
  const percent = topic.total > 0 ? Math.round((topic.count / topic.total) * 100) : 0;
  const complete = topic.certificate_total > 0 && topic.certificate_count === topic.certificate_total;
  return (
    <Card withBorder padding="md" h="100%" className={classes.card} style={{ borderTop: `4px solid ${topic.color}` }}>
      <Group justify="space-between" align="flex-start" wrap="nowrap" mb="sm">
        <ContentIcon name={topic.icon} size={52} />
        <Badge
          // White on teal 9 reads at 5:1 (on the default filled teal at 3.1:1).
          color={complete ? "teal.9" : "gray"}
          variant={complete ? "filled" : "light"}
          size="lg"
          data-testid="topic-badge"
        >
          {topic.count}/{topic.total}
        </Badge>
      </Group>
      <Text fw={700} size="lg" lh={1.25} mb="xs">
        <Link to={`/topic/${topic.id}`} className={classes.stretchedLink}>
          <ContentName name={topic.name} lang={topic.name_lang} />
        </Link>
      </Text>
      <Progress
        value={percent}
        color={topic.color}
        size="md"
        radius="xl"
        aria-label={t("topics.progress", { count: topic.count, total: topic.total })}
      />
      <Group justify="space-between" mt={6}>
        <Text size="xs" c="dimmed">
          {t("topics.progress", { count: topic.count, total: topic.total })}
        </Text>
        <Text size="xs" c="dimmed">
          {t("topics.certificates", { count: topic.certificate_count, total: topic.certificate_total })}
        </Text>
      </Group>
    </Card>
  );
}

/** The start page of an employee: every topic with progress and the count/total badge. */
export function TopicGrid() {
  const { t } = useTranslation();
  const { data, isPending } = useTopics();
  if (isPending) {
    return (
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
        {[1, 2, 3].map((i) => (
          <Skeleton key={i} h={170} radius="md" />
        ))}
      </SimpleGrid>
    );
  }
  const topics = (data ?? []).filter((topic) => !topic.disabled);
  if (topics.length === 0) return <Alert color="blue">{t("topics.none")}</Alert>;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="md">
      {topics.map((topic) => (
        <TopicCard key={topic.id} topic={topic} />
      ))}
    </SimpleGrid>
  );
}

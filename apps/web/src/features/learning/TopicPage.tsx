import type { Training } from "@carecampus/contract";
import { Badge, Card, Group, Progress, SimpleGrid, Skeleton, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { ContentIcon } from "../../components/ContentIcon";
import { ContentName } from "../../components/ContentName";
import classes from "../../components/cards.module.css";
import { ExpiryBadge, NO_CERTIFICATE_COLOUR } from "../../components/ExpiryBadge";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { useTopic } from "./queries";

function TrainingCard({ topicId, training }: { topicId: number; training: Training }) {
  const { t } = useTranslation();
  const percent = training.total > 0 ? Math.round((training.count / training.total) * 100) : 0;
  return (
    <Card withBorder padding="md" h="100%" className={classes.card}>
      {/* The title is the link, stretched over the card; the full name wraps (the 40-character cut is the certificate's). */}
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <ContentIcon name={training.icon} size={44} />
        <Stack gap={4} style={{ flex: 1, minWidth: 0 }}>
          <Text fw={700} lh={1.25} style={{ overflowWrap: "anywhere" }}>
            <Link to={`/topic/${topicId}/training/${training.id}`} className={classes.stretchedLink}>
              <ContentName name={training.name} lang={training.name_lang} />
            </Link>
          </Text>
          <Group gap={6}>
            {training.passive && (
              <Badge size="sm" variant="light" color="grape">
                {t("training.passive")}
              </Badge>
            )}
            {training.renewal && (
              <Badge size="sm" variant="light" color="orange">
                {t("training.renewal")}
              </Badge>
            )}
          </Group>
        </Stack>
      </Group>
      {!training.passive && (
        <>
          <Progress value={percent} mt="md" size="sm" radius="xl" aria-label={`${training.count}/${training.total}`} />
          <Text size="xs" c="dimmed" mt={4}>
            {t("topics.progress", { count: training.count, total: training.total })}
          </Text>
        </>
      )}
      <Group mt="sm" justify="space-between">
        {training.certificate ? (
          <ExpiryBadge certificate={training.certificate} />
        ) : (
          <Badge color={NO_CERTIFICATE_COLOUR} variant="outline" size="lg">
            {t("training.noCertificate")}
          </Badge>
        )}
      </Group>
    </Card>
  );
}

export default function TopicPage() {
  const topicId = Number(useParams().topicId);
  const { data, isPending, isError } = useTopic(topicId);
  if (isError || !Number.isInteger(topicId)) return <NotFoundPage />;
  if (isPending) return <Skeleton h={300} />;
  return (
    <>
      <PageHeader title={<ContentName name={data.topic.name} lang={data.topic.name_lang} />} />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="md">
        {data.trainings.map((training) => (
          <TrainingCard key={training.id} topicId={topicId} training={training} />
        ))}
      </SimpleGrid>
    </>
  );
}

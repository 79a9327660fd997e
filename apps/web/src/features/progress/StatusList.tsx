import { formatDate, groupByColour, type OverviewUser, type TopicOverview } from "@carecampus/contract";
import { Accordion, Badge, Card, Group, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { settings } from "../../app/settings";
import { expiryBadgeProps } from "../../components/ExpiryBadge";

type Training = TopicOverview["trainings"][number];

function cellOf(user: OverviewUser, trainingId: number) {
  return user.cells.find((c) => c.training_id === trainingId);
}

/** One training: its learners grouped by expiry (none/expired, within a week, within a month, valid). */
function TrainingStatus({ overview, training }: { overview: TopicOverview; training: Training }) {
  const { t } = useTranslation();
  const learners = overview.users.filter((u) => cellOf(u, training.id));
  const groups = groupByColour(learners, (u) => cellOf(u, training.id)?.colour ?? "red");
  const dateOf = (u: OverviewUser) => {
    const cell = cellOf(u, training.id);
    const date = settings["show-acquired-at"] ? cell?.acquired_at : cell?.expires_at;
    return date ? formatDate(date, settings["time-zone"]) : t("progress.noCertificate");
  };
  return (
    <Card withBorder data-testid="training-status">
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={3} size="h5">
          {training.name}
        </Title>
        {training.passive && (
          <Badge variant="outline" color="gray">
            {t("trainingSelection.passive")}
          </Badge>
        )}
      </Group>
      <Accordion multiple variant="contained" chevronPosition="left">
        {groups.map((g) => (
          <Accordion.Item key={g.colour} value={g.colour} data-testid="status-group" data-colour={g.colour}>
            <Accordion.Control disabled={g.items.length === 0}>
              <Group justify="space-between" wrap="nowrap">
                <Text size="sm">{t(`progress.group.${g.colour}`)}</Text>
                <Badge {...expiryBadgeProps(g.colour)}>{g.items.length}</Badge>
              </Group>
            </Accordion.Control>
            <Accordion.Panel>
              <Stack gap={2}>
                {g.items.map((u) => (
                  <Group key={u.id} justify="space-between" wrap="nowrap" gap="xs">
                    <Text size="sm" truncate>
                      {u.surname}, {u.name}
                      {u.facility && (
                        <Text span c="dimmed" size="xs">
                          {" "}
                          · {u.facility.name}
                        </Text>
                      )}
                    </Text>
                    <Text size="sm" c="dimmed" style={{ whiteSpace: "nowrap" }}>
                      {dateOf(u)}
                    </Text>
                  </Group>
                ))}
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        ))}
      </Accordion>
    </Card>
  );
}

/** Status-list mode: the topic's (chosen) trainings, each with its learners by expiry. */
export function StatusList({ overview, trainings }: { overview: TopicOverview; trainings: Training[] }) {
  return (
    <Stack gap="md">
      {trainings.map((training) => (
        <TrainingStatus key={training.id} overview={overview} training={training} />
      ))}
    </Stack>
  );
}

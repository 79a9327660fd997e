import { api, seesAllFacilities } from "@carecampus/contract";
import {
  Alert,
  Button,
  Card,
  Chip,
  Group,
  Loader,
  Modal,
  ScrollArea,
  SegmentedControl,
  Select,
  Skeleton,
  Stack,
  Text,
} from "@mantine/core";
import { IconAdjustments, IconFileSpreadsheet, IconInfoCircle } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useSearchParams } from "react-router";
import { authedUrl, freshLink } from "../../api/client";
import { settings } from "../../app/settings";
import { PageHeader } from "../../components/PageHeader";
import { TrainingSelection } from "../../components/TrainingSelection";
import { useCatalogue, useFacilities } from "../../queries/admin";
import { useRequiredSession } from "../../session/store";
import { CoverageChart } from "./CoverageChart";
import { Legend } from "./Legend";
import { MatrixView } from "./MatrixView";
import { useTopicOverview } from "./queries";
import { StatusList } from "./StatusList";

type Mode = "list" | "matrix";

/**
 * /progress: the status list or the matrix of one topic, for staff (spec §2 Progress overview).
 * `?topic=` (an id) and `?facility=` (a name) choose what it opens on, as the staff start page links.
 */
export default function ProgressPage() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const allFacilities = seesAllFacilities(user.roles);
  const [mode, setMode] = useState<Mode>("list");
  const [search] = useSearchParams();
  const [facility, setFacility] = useState<string | null>(allFacilities ? search.get("facility") || null : null);
  const [chosenTopic, setTopic] = useState<number | null>(() => {
    const asked = Number(search.get("topic"));
    return Number.isInteger(asked) && asked > 0 ? asked : null;
  });
  // Trainings hidden with the training selection; everything shows until someone chooses.
  const [hidden, setHidden] = useState<ReadonlySet<number>>(new Set());
  const [choosing, setChoosing] = useState(false);
  // A topic asked for by a link may be newer than the kept catalogue: then it is asked again.
  const catalogue = useCatalogue({ topic: chosenTopic });
  const facilities = useFacilities(allFacilities);
  const topics = catalogue.data ?? [];
  const known = topics.some((tp) => tp.id === chosenTopic) ? chosenTopic : null;
  // A topic asked for that the kept catalogue lacks: no overview while it is asked again; not in
  // the new one either (retired since), the first topic's.
  const waiting = chosenTopic !== null && known === null && catalogue.isFetching;
  const topicId = waiting ? null : (known ?? topics[0]?.id ?? null);
  const overview = useTopicOverview(topicId, facility);
  const allIds = topics.flatMap((tp) => tp.trainings.map((tr) => tr.id));
  const selected = new Set(allIds.filter((id) => !hidden.has(id)));
  const trainings = (overview.data?.trainings ?? []).filter((tr) => !hidden.has(tr.id));

  const exportLink = freshLink(() => authedUrl(api.overviewExport, { query: { facilityName: facility || undefined } }));

  if (catalogue.isPending || waiting) return <Skeleton h={400} />;

  return (
    <>
      <PageHeader title={t("progress.title")} />
      <Stack gap="md">
        <Card withBorder>
          <Stack gap="sm">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <SegmentedControl
                value={mode}
                onChange={(v) => setMode(v as Mode)}
                data={[
                  { value: "list", label: t("progress.modeList") },
                  { value: "matrix", label: t("progress.modeMatrix") },
                ]}
                aria-label={t("progress.mode")}
              />
              <Group gap="xs" wrap="wrap">
                <Button variant="default" leftSection={<IconAdjustments size={16} />} onClick={() => setChoosing(true)}>
                  {t("progress.chooseTrainings")}
                </Button>
                {/* The export, like the facility filter, is the superusers' and Super-Admins' (spec §6). */}
                {allFacilities && (
                  <Button
                    component="a"
                    {...exportLink}
                    download
                    variant="light"
                    leftSection={<IconFileSpreadsheet size={16} />}
                    data-testid="xlsx-download"
                  >
                    {t("progress.download")}
                  </Button>
                )}
              </Group>
            </Group>
            <Group gap="sm" wrap="wrap" align="flex-end">
              {allFacilities && (
                <Select
                  label={t("progress.facility")}
                  data={[
                    { value: "", label: t("progress.allFacilities") },
                    ...(facilities.data ?? []).map((f) => ({ value: f.name, label: f.name })),
                  ]}
                  value={facility ?? ""}
                  onChange={(v) => setFacility(v ? v : null)}
                  allowDeselect={false}
                  searchable
                  w={260}
                />
              )}
              {mode === "matrix" && (
                <Select
                  label={t("progress.topic")}
                  data={topics.map((tp) => ({ value: String(tp.id), label: tp.name }))}
                  value={topicId === null ? null : String(topicId)}
                  onChange={(v) => v && setTopic(Number(v))}
                  allowDeselect={false}
                  w={300}
                />
              )}
            </Group>
            {mode === "list" && (
              <ScrollArea type="auto" offsetScrollbars>
                <Chip.Group
                  multiple={false}
                  value={topicId === null ? null : String(topicId)}
                  onChange={(v) => setTopic(Number(v))}
                >
                  <Group gap="xs" wrap="nowrap" pb={4} data-testid="topic-chips">
                    {topics.map((tp) => (
                      <Chip key={tp.id} value={String(tp.id)}>
                        {tp.name}
                      </Chip>
                    ))}
                  </Group>
                </Chip.Group>
              </ScrollArea>
            )}
            <Legend
              note={mode === "matrix" && settings["show-acquired-at"] ? t("progress.legendFollowsExpiry") : undefined}
            />
          </Stack>
        </Card>

        {overview.isError && (
          <Alert color="red" icon={<IconInfoCircle />}>
            {t("progress.loadFailed")}
          </Alert>
        )}
        {overview.isPending && topicId !== null && <Skeleton h={240} />}
        {overview.data && (
          <div style={{ opacity: overview.isPlaceholderData ? 0.6 : 1 }} aria-busy={overview.isFetching}>
            {overview.isFetching && <Loader size="xs" pos="absolute" />}
            {overview.data.users.length === 0 ? (
              <Alert icon={<IconInfoCircle />} color="gray" variant="light">
                {t("progress.noLearners")}
              </Alert>
            ) : trainings.length === 0 ? (
              <Alert icon={<IconInfoCircle />} color="gray" variant="light">
                {t("progress.noTrainingsChosen")}
              </Alert>
            ) : mode === "list" ? (
              <Stack gap="md">
                <CoverageChart overview={overview.data} trainings={trainings} />
                <StatusList overview={overview.data} trainings={trainings} />
              </Stack>
            ) : (
              <MatrixView overview={overview.data} trainings={trainings} />
            )}
          </div>
        )}
      </Stack>

      <Modal opened={choosing} onClose={() => setChoosing(false)} title={t("progress.chooseTrainings")} size="lg">
        <Text size="sm" c="dimmed" mb="sm">
          {t("progress.chooseTrainingsHint")}
        </Text>
        <TrainingSelection
          catalogue={topics}
          selected={selected}
          onChange={(next) => setHidden(new Set(allIds.filter((id) => !next.has(id))))}
        />
        <Group justify="flex-end" mt="md">
          <Button onClick={() => setChoosing(false)}>{t("common.close")}</Button>
        </Group>
      </Modal>
    </>
  );
}

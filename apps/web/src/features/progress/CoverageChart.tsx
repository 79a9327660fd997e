import { COLOUR_ORDER, type ExpiryColour, type TopicOverview, validShare } from "@carecampus/contract";
import { Box, Card, Group, Stack, Table, Text, Title, Tooltip } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { EXPIRY_COLOURS } from "../../components/ExpiryBadge";
import { scrollRegion } from "../../components/scroll-region";

type Training = TopicOverview["trainings"][number];

function coloursOf(overview: TopicOverview, trainingId: number, facilityId?: number): ExpiryColour[] {
  return overview.users
    .filter((u) => facilityId === undefined || u.facility?.id === facilityId)
    .flatMap((u) => u.cells.filter((c) => c.training_id === trainingId).map((c) => c.colour));
}

/** One stacked bar: how many learners are red, orange, yellow and green in a training. */
function CoverageBar({ colours, label }: { colours: ExpiryColour[]; label: string }) {
  const { t } = useTranslation();
  const total = colours.length;
  return (
    <Group gap={0} h={18} style={{ borderRadius: 4, overflow: "hidden", flex: 1 }} role="img" aria-label={label}>
      {total === 0 && <Box h="100%" w="100%" bg="gray.2" />}
      {COLOUR_ORDER.map((colour) => {
        const n = colours.filter((c) => c === colour).length;
        if (n === 0) return null;
        return (
          <Tooltip key={colour} label={`${t(`expiry.${colour}`)}: ${n}`}>
            <Box h="100%" w={`${(n / total) * 100}%`} bg={`${EXPIRY_COLOURS[colour]}.6`} />
          </Tooltip>
        );
      })}
    </Group>
  );
}

/**
 * The topic at a glance: per training the share of learners in each colour, and — across
 * facilities — the share of valid certificates per training and facility as a heat table.
 */
export function CoverageChart({ overview, trainings }: { overview: TopicOverview; trainings: Training[] }) {
  const { t } = useTranslation();
  const facilities = [
    ...new Map(overview.users.flatMap((u) => (u.facility ? [[u.facility.id, u.facility]] : []))).values(),
  ].sort((a, b) => a.name.localeCompare(b.name, "de"));
  return (
    <Card withBorder data-testid="coverage-chart">
      <Title order={2} size="h5" mb="sm">
        {t("progress.chartTitle")}
      </Title>
      <Stack gap={8}>
        {trainings.map((tr) => {
          const colours = coloursOf(overview, tr.id);
          const share = validShare(colours);
          return (
            <Group key={tr.id} gap="sm" wrap="nowrap">
              {/* A long name wraps (at 360 px too) instead of being cut off. */}
              <Text size="sm" w={{ base: 120, sm: 240 }} style={{ overflowWrap: "anywhere", flexShrink: 0 }}>
                {tr.name}
              </Text>
              <CoverageBar colours={colours} label={t("progress.chartBar", { name: tr.name, share })} />
              <Text size="sm" fw={600} w={48} ta="right">
                {share}%
              </Text>
            </Group>
          );
        })}
      </Stack>
      {facilities.length > 1 && (
        <Table.ScrollContainer minWidth={400} mt="md" type="native" {...scrollRegion(t("progress.chartTitle"))}>
          <Table withTableBorder withColumnBorders fz="xs" data-testid="facility-coverage">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("progress.facility")}</Table.Th>
                {/* Whole names, wrapped between words: the table scrolls sideways where they do not fit. */}
                {trainings.map((tr) => (
                  <Table.Th key={tr.id} miw={96} maw={180} style={{ hyphens: "auto", overflowWrap: "break-word" }}>
                    {tr.name}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {facilities.map((f) => (
                <Table.Tr key={f.id}>
                  <Table.Td>{f.name}</Table.Td>
                  {trainings.map((tr) => {
                    const colours = coloursOf(overview, tr.id, f.id);
                    const share = validShare(colours);
                    const shade =
                      colours.length === 0 ? "gray.1" : share >= 90 ? "teal.2" : share >= 60 ? "yellow.2" : "red.2";
                    return (
                      // Light shades in every theme, so dark text on them (the dark theme's light
                      // text read at 1.1–1.4:1).
                      <Table.Td key={tr.id} bg={shade} c="black" ta="center">
                        {colours.length === 0 ? "–" : `${share}%`}
                      </Table.Td>
                    );
                  })}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Card>
  );
}

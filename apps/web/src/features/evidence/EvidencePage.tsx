import "@mantine/dates/styles.css";
import {
  api,
  type EvidenceReport,
  type EvidenceTraining,
  formatDate,
  isoDay,
  seesAllFacilities,
} from "@carecampus/contract";
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  Loader,
  MultiSelect,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from "@mantine/core";
import { DatePickerInput, DatesProvider } from "@mantine/dates";
import { IconDownload, IconInfoCircle } from "@tabler/icons-react";
import "dayjs/locale/de";
import "dayjs/locale/es";
import "dayjs/locale/fr";
import "dayjs/locale/pt-br";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl, freshLink } from "../../api/client";
import { settings } from "../../app/settings";
import { PageHeader } from "../../components/PageHeader";
import { useCatalogue, useFacilities } from "../../queries/admin";
import { useRequiredSession } from "../../session/store";
import { type EvidenceChoice, evidenceQuery, useEvidence } from "./queries";

/** DD.MM.YYYY of a day YYYY-MM-DD. */
const dayText = (day: string) => day.split("-").reverse().join(".");

/** One training: its rate and the people required, each with the certificate's code or "missing". */
function TrainingEvidence({ training }: { training: EvidenceTraining }) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const percent = training.rate === null ? 0 : Math.round(training.rate * 1000) / 10;
  return (
    <Card withBorder component="section" aria-labelledby={`evidence-t${training.id}`} data-testid="evidence-training">
      <Group justify="space-between" align="baseline" wrap="wrap" gap="xs" mb="xs">
        <Title order={3} fz="h5" id={`evidence-t${training.id}`} style={{ overflowWrap: "anywhere" }}>
          {training.topic.name} – {training.name}
        </Title>
        <Text fw={600} data-testid="evidence-rate">
          {training.required === 0
            ? "–"
            : t("evidence.rate", { held: training.held, required: training.required, percent })}
        </Text>
      </Group>
      {training.people.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("evidence.nobodyRequired")}
        </Text>
      ) : (
        <Table layout="fixed" fz="sm" verticalSpacing={4}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th w="50%">{t("evidence.person")}</Table.Th>
              <Table.Th style={{ overflowWrap: "anywhere" }}>{t("evidence.code")}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {training.people.map((p) => (
              <Table.Tr key={p.id}>
                <Table.Td style={{ overflowWrap: "anywhere" }}>
                  {p.surname}, {p.name}
                  {p.former && (
                    <Text span size="xs" c="dimmed">
                      {" "}
                      ({t("evidence.former")})
                    </Text>
                  )}
                </Table.Td>
                {/* Code and validity in one cell: two columns leave a phone room for a whole code. */}
                <Table.Td>
                  {p.certificate ? (
                    <>
                      <Text span ff="monospace" size="sm" style={{ overflowWrap: "anywhere" }}>
                        {p.certificate.code}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {t("evidence.validUntil")} {formatDate(p.certificate.expires_at, zone)}
                      </Text>
                    </>
                  ) : (
                    <Badge color="red" variant="light">
                      {t("evidence.missing")}
                    </Badge>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

/** The notes of the answer: from which day it is exact, and that revoked certificates never count. */
function Notes({ report }: { report: EvidenceReport }) {
  const { t } = useTranslation();
  const from = report.exact_from ? dayText(report.exact_from) : null;
  return (
    <Alert variant="light" color={report.projected ? "orange" : "teal"} icon={<IconInfoCircle />}>
      <Text size="sm" data-testid="evidence-exact">
        {from === null
          ? t("evidence.noHistory")
          : t(report.projected ? "evidence.projected" : "evidence.exactFrom", { date: from })}
      </Text>
      <Text size="sm">{t("evidence.revokedNever")}</Text>
    </Alert>
  );
}

/** /evidence: the facility's evidence at a date, for staff (issue 29). */
export default function EvidencePage() {
  const { t, i18n } = useTranslation();
  const { user } = useRequiredSession();
  const zone = settings["time-zone"];
  const today = isoDay(new Date(), zone);
  const allFacilities = seesAllFacilities(user.roles);
  const facilities = useFacilities(allFacilities);
  const catalogue = useCatalogue();
  const [chosenFacility, setFacility] = useState<string | null>(null);
  const [choice, setChoice] = useState<Omit<EvidenceChoice, "facility">>({ date: today, topics: [], trainings: [] });
  const facility = allFacilities
    ? Number(chosenFacility ?? facilities.data?.[0]?.id ?? Number.NaN) || undefined
    : undefined;
  const full: EvidenceChoice = { ...choice, facility };
  const evidence = useEvidence(full, !allFacilities || facility !== undefined);
  const topics = catalogue.data ?? [];
  const trainingOptions = topics
    .filter((tp) => choice.topics.length === 0 || choice.topics.includes(tp.id))
    .map((tp) => ({ group: tp.name, items: tp.trainings.map((tr) => ({ value: String(tr.id), label: tr.name })) }));
  const link = (format: "pdf" | "xlsx") =>
    freshLink(() => authedUrl(api.evidenceExport, { query: { ...evidenceQuery(full), format } }));

  if (catalogue.isPending) return <Skeleton h={400} />;
  const report = evidence.data;
  return (
    <>
      <PageHeader title={t("evidence.title")}>
        <Group gap="xs" wrap="wrap">
          <Button
            component="a"
            {...link("pdf")}
            variant="light"
            leftSection={<IconDownload size={16} />}
            data-testid="evidence-pdf"
          >
            {t("evidence.downloadPdf")}
          </Button>
          <Button
            component="a"
            {...link("xlsx")}
            variant="light"
            leftSection={<IconDownload size={16} />}
            data-testid="evidence-xlsx"
          >
            {t("evidence.downloadXlsx")}
          </Button>
        </Group>
      </PageHeader>
      <Text mb="md">{t("evidence.intro")}</Text>
      <SimpleGrid cols={{ base: 1, sm: 2, md: allFacilities ? 4 : 3 }} spacing="sm" mb="md">
        {allFacilities && (
          <Select
            label={t("evidence.facility")}
            data={(facilities.data ?? []).map((f) => ({ value: String(f.id), label: f.name }))}
            value={facility === undefined ? null : String(facility)}
            onChange={setFacility}
            allowDeselect={false}
            data-testid="evidence-facility"
          />
        )}
        <MultiSelect
          label={t("evidence.topics")}
          placeholder={choice.topics.length === 0 ? t("evidence.allTopics") : undefined}
          data={topics.map((tp) => ({ value: String(tp.id), label: tp.name }))}
          value={choice.topics.map(String)}
          onChange={(v) => setChoice((c) => ({ ...c, topics: v.map(Number), trainings: [] }))}
          clearable
          data-testid="evidence-topics"
        />
        <MultiSelect
          label={t("evidence.trainings")}
          placeholder={choice.trainings.length === 0 ? t("evidence.allTrainings") : undefined}
          data={trainingOptions}
          value={choice.trainings.map(String)}
          onChange={(v) => setChoice((c) => ({ ...c, trainings: v.map(Number) }))}
          searchable
          clearable
          data-testid="evidence-trainings"
        />
        {/* The app's date picker, as in the calendar: DD.MM.YYYY, the reader's language, no future day. */}
        <DatesProvider settings={{ locale: i18n.language === "br" ? "pt-br" : i18n.language, firstDayOfWeek: 1 }}>
          <DatePickerInput
            label={t("evidence.date")}
            valueFormat="DD.MM.YYYY"
            value={choice.date}
            maxDate={today}
            onChange={(day) => day && setChoice((c) => ({ ...c, date: String(day).slice(0, 10) }))}
            data-testid="evidence-date"
          />
        </DatesProvider>
      </SimpleGrid>
      <Stack gap="sm">
        <Group gap="xs">
          <Title order={2} fz="h4">
            {t("evidence.results", { date: dayText(report?.date ?? choice.date) })}
          </Title>
          {evidence.isFetching && <Loader size="xs" aria-label={t("evidence.loading")} />}
        </Group>
        {/* Announced politely when a choice changes the answer; the cards below show the same. */}
        <VisuallyHidden role="status" aria-live="polite" data-testid="evidence-status">
          {report
            ? report.trainings.length === 0
              ? t("evidence.empty")
              : report.trainings
                  .map((tr) => `${tr.name}: ${tr.required === 0 ? "–" : `${tr.held}/${tr.required}`}`)
                  .join(" · ")
            : ""}
        </VisuallyHidden>
        {evidence.isPending && <Loader aria-label={t("evidence.loading")} />}
        {report && <Notes report={report} />}
        {report?.trainings.map((tr) => (
          <TrainingEvidence key={tr.id} training={tr} />
        ))}
      </Stack>
    </>
  );
}

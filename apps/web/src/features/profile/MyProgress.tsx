import {
  api,
  expiryColour,
  formatDate,
  formatTime,
  TRUNCATE_CERTIFICATE,
  TRUNCATE_EXTERNAL_COURSE,
  truncate,
  type UserProgress,
} from "@carecampus/contract";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Collapse,
  Group,
  Progress,
  RingProgress,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { IconChevronDown, IconChevronUp, IconWifiOff } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError } from "../../api/call";
import { authedUrl, freshLink } from "../../api/client";
import { settings } from "../../app/settings";
import { CertificateHistory } from "../../components/CertificateHistory";
import { ContentIcon } from "../../components/ContentIcon";
import { EXPIRY_COLOURS, ExpiryBadge } from "../../components/ExpiryBadge";
import { pdfId } from "../../offline/copy";
import { PdfAvailabilityProvider, usePdfAvailable } from "../../offline/pdf-availability";
import { type KeptCopyState, useKeptCopy } from "../../offline/useKeptCopy";
import { useUserProgress } from "../../queries/learning";
import { CredentialLink, useCredentialCertificates } from "./CredentialLink";

function Stat({ label, value, total }: { label: string; value: number; total?: number }) {
  const percent = total ? Math.round((value / total) * 100) : 0;
  return (
    <Card withBorder>
      <Group wrap="nowrap">
        {total !== undefined && (
          <RingProgress
            size={64}
            thickness={7}
            roundCaps
            sections={[{ value: percent, color: "teal" }]}
            label={
              <Text ta="center" size="xs">
                {percent}%
              </Text>
            }
          />
        )}
        <div>
          <Text size="sm" c="dimmed">
            {label}
          </Text>
          <Text fw={700} size="xl">
            {value}
            {total !== undefined ? ` / ${total}` : ""}
          </Text>
        </div>
      </Group>
    </Card>
  );
}

/**
 * Training progress and 'my certificates' on /profile, for employees and superusers. Without a
 * connection, the copy kept on this device the last time (offline/copy.ts), said as such.
 */
export function MyProgress({ userId }: { userId: number }) {
  const { data, error } = useUserProgress(userId);
  const credentials = useCredentialCertificates(userId);
  const unreachable = error instanceof ApiError && error.status === 0;
  const kept = useKeptCopy(unreachable && !data);
  if (data) return <MyProgressView data={data} credentials={credentials} />;
  if (kept && kept.copy.user.id === userId) return <KeptCopy kept={kept} />;
  return null;
}

/** The device's copy with the note that it is one, from when, and only the PDFs kept openable. */
export function KeptCopy({ kept }: { kept: KeptCopyState }) {
  const { t } = useTranslation();
  const { copy, pdfs } = kept;
  return (
    <PdfAvailabilityProvider value={(ref) => pdfs.has(pdfId(ref))}>
      <Alert color="orange" variant="light" icon={<IconWifiOff />} data-testid="kept-copy">
        {t("offline.keptCopy", {
          name: `${copy.user.name} ${copy.user.surname}`,
          date: formatDate(copy.saved_at, settings["time-zone"]),
          time: formatTime(copy.saved_at, settings["time-zone"]),
        })}
      </Alert>
      <MyProgressView data={copy.progress} credentials={NONE} />
    </PdfAvailabilityProvider>
  );
}

const NONE = new Set<number>();

function MyProgressView({ data, credentials }: { data: UserProgress; credentials: Set<number> }) {
  const { t } = useTranslation();
  const pdfAvailable = usePdfAvailable();
  // expand-topic-progress (spec §9): the per-topic bars open from the start, or on request.
  const [topicsOpen, setTopicsOpen] = useState(settings["expand-topic-progress"]);
  // A training whose certificate was revoked stays listed: the history shows it marked, and the
  // training is due again.
  const held = data.training_progress.filter((tp) => tp.certificate || tp.earlier_certificates.some((c) => c.revoked));
  return (
    <>
      <Card withBorder>
        <Title order={2} size="h4" mb="md">
          {t("profile.progress.title")}
        </Title>
        <SimpleGrid cols={{ base: 1, sm: settings["show-points"] ? 3 : 2 }} mb="md">
          <Stat label={t("profile.progress.questions")} value={data.question_count} total={data.question_total} />
          <Stat
            label={t("profile.progress.certificates")}
            value={data.certificate_count}
            total={data.certificate_total}
          />
          {settings["show-points"] && <Stat label={t("profile.progress.points")} value={data.points} />}
        </SimpleGrid>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => setTopicsOpen((o) => !o)}
          rightSection={topicsOpen ? <IconChevronUp size={14} /> : <IconChevronDown size={14} />}
          aria-expanded={topicsOpen}
          mb="xs"
          // A long label (French, Spanish) wraps instead of being cut off on a phone.
          h="auto"
          mih={26}
          styles={{ label: { whiteSpace: "normal", textAlign: "start", lineHeight: 1.35 } }}
        >
          {t(topicsOpen ? "profile.progress.hideTopics" : "profile.progress.showTopics")}
        </Button>
        <Collapse expanded={topicsOpen}>
          <Stack gap="sm" data-testid="topic-progress">
            {data.topic_progress.map((topic) => (
              <div key={topic.id}>
                <Group justify="space-between" mb={4} wrap="nowrap">
                  <Group gap="xs" wrap="nowrap">
                    <ContentIcon name={topic.icon} size={24} />
                    <Text size="sm">{topic.name}</Text>
                  </Group>
                  <Text size="sm" c="dimmed">
                    {topic.count}/{topic.total}
                  </Text>
                </Group>
                <Progress
                  value={topic.total ? (topic.count / topic.total) * 100 : 0}
                  color={topic.color}
                  radius="xl"
                  aria-label={`${topic.name}: ${topic.count}/${topic.total}`}
                />
              </div>
            ))}
          </Stack>
        </Collapse>
      </Card>
      <Card withBorder>
        <Title order={2} size="h4" mb="md">
          {t("profile.certificates.title")}
        </Title>
        {held.length === 0 ? (
          <Text c="dimmed">{t("profile.certificates.none")}</Text>
        ) : (
          <Stack gap="xs">
            {held.map((tp) => {
              const cert = tp.certificate;
              const colour = cert ? expiryColour(cert.expires_at, new Date(), settings["time-zone"]) : "red";
              return (
                <Group
                  key={tp.id}
                  justify="space-between"
                  wrap="nowrap"
                  style={{ borderLeft: `4px solid var(--mantine-color-${EXPIRY_COLOURS[colour]}-6)`, paddingLeft: 10 }}
                  data-testid="my-certificate"
                >
                  <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                    <ContentIcon name={tp.icon} size={28} />
                    <div style={{ minWidth: 0 }}>
                      <Text size="sm" fw={600} title={tp.name}>
                        {truncate(tp.name, TRUNCATE_CERTIFICATE)}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {!cert
                          ? t("revoke.due")
                          : cert.active_working_cert
                            ? t("profile.certificates.validUntil", {
                                date: formatDate(cert.expires_at, settings["time-zone"]),
                              })
                            : t("profile.certificates.expired", {
                                date: formatDate(cert.expires_at, settings["time-zone"]),
                              })}
                      </Text>
                      {cert && credentials.has(cert.id) && (
                        <CredentialLink certificateId={cert.id} training={tp.name} />
                      )}
                      <CertificateHistory certificates={tp.earlier_certificates} />
                    </div>
                  </Group>
                  <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
                    {settings["show-points"] && tp.points > 0 && (
                      <Badge variant="light">{t("training.points", { points: tp.points })}</Badge>
                    )}
                    {cert && <ExpiryBadge certificate={cert} size="md" />}
                  </Group>
                </Group>
              );
            })}
          </Stack>
        )}
      </Card>
      {data.partner_certificates.length > 0 && (
        <Card withBorder>
          <Title order={2} size="h4" mb="md">
            {t("profile.certificates.partnerTitle")}
          </Title>
          <Stack gap="xs" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
            {data.partner_certificates.map((pc) => (
              <li key={pc.id} data-testid="my-partner-certificate">
                {pdfAvailable({ id: pc.id, partner: true }) ? (
                  <Anchor
                    size="sm"
                    fw={600}
                    title={pc.course_name}
                    {...freshLink(() => authedUrl(api.certificatePdf, { query: { id: pc.id, source: "partner" } }))}
                    target="_blank"
                    rel="noopener"
                  >
                    {truncate(pc.course_name, TRUNCATE_EXTERNAL_COURSE)}
                  </Anchor>
                ) : (
                  <Text size="sm" fw={600} title={pc.course_name}>
                    {truncate(pc.course_name, TRUNCATE_EXTERNAL_COURSE)}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {t("profile.certificates.partnerLine", {
                    training: truncate(pc.training_name, TRUNCATE_CERTIFICATE),
                    date: formatDate(pc.acquired_at, settings["time-zone"]),
                  })}
                </Text>
              </li>
            ))}
          </Stack>
        </Card>
      )}
    </>
  );
}

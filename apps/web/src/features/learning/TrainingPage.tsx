import { api, type Questionnaire } from "@carecampus/contract";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  Paper,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Tooltip,
} from "@mantine/core";
import {
  IconCalendarEvent,
  IconCheck,
  IconInfoCircle,
  IconLock,
  IconPencil,
  IconPlayerPlay,
  IconScale,
} from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { authedUrl, freshLink } from "../../api/client";
import { settings } from "../../app/settings";
import { ContentIcon } from "../../components/ContentIcon";
import { ContentName } from "../../components/ContentName";
import { ExpiryBadge, NO_CERTIFICATE_COLOUR } from "../../components/ExpiryBadge";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { eventWhen } from "../../components/UpcomingEvents";
import { useMyEvents } from "../../queries/calendar";
import { questionnaireLabel } from "./labels";
import { PartnerCourses } from "./PartnerCourses";
import { useTraining } from "./queries";

function QuestionnaireRow({ q, onOpen }: { q: Questionnaire; onOpen: (q: Questionnaire) => void }) {
  const { t } = useTranslation();
  const label = questionnaireLabel(t, q.name);
  const canOpen = !q.disabled && (!q.finished || q.editable);
  return (
    <Paper
      withBorder
      p="md"
      data-testid="questionnaire"
      data-finished={q.finished || undefined}
      data-disabled={q.disabled || undefined}
    >
      {/* Where the name and the action do not fit side by side (a long word, French or Spanish on
          a phone), the action moves below, at the right: it never sticks out of the card. */}
      <Group justify="space-between" wrap="wrap" style={{ rowGap: "var(--mantine-spacing-sm)" }}>
        <Group gap="sm" wrap="nowrap" style={{ flex: "1 1 10rem", minWidth: 0 }}>
          {q.finished ? (
            <ThemeIcon color="teal" radius="xl" size="lg" role="img" aria-label={t("questionnaires.finished")}>
              <IconCheck size={20} />
            </ThemeIcon>
          ) : q.disabled ? (
            <ThemeIcon
              color="gray"
              variant="light"
              radius="xl"
              size="lg"
              role="img"
              aria-label={t("questionnaires.locked")}
            >
              <IconLock size={18} />
            </ThemeIcon>
          ) : (
            <ThemeIcon variant="light" radius="xl" size="lg">
              <IconPlayerPlay size={18} />
            </ThemeIcon>
          )}
          <div>
            <Text fw={600} c={q.disabled ? "dimmed" : undefined}>
              <ContentName name={label} lang={q.name_lang} />
            </Text>
            <Text size="sm" c="dimmed">
              {q.disabled
                ? t("questionnaires.locked")
                : t("questionnaires.progress", { count: q.count, total: q.total })}
            </Text>
          </div>
        </Group>
        <Group gap="xs" wrap="wrap" justify="flex-end" ml="auto">
          {q.origin === "facility" && (
            <Badge variant="default" data-testid="own-questionnaire" style={{ textTransform: "none" }}>
              {t("questionnaires.own")}
            </Badge>
          )}
          {q.can_edit && (
            <Button
              component={Link}
              to={`/authoring/questionnaire/${q.id}`}
              variant="subtle"
              leftSection={<IconPencil size={16} />}
              aria-label={`${t("questionnaires.edit")}: ${label}`}
            >
              {t("questionnaires.edit")}
            </Button>
          )}
          {q.editable && (
            <Tooltip label={t("questionnaires.editable")}>
              <Badge variant="light" leftSection={<IconPencil size={12} />} aria-label={t("questionnaires.editable")}>
                {t("questionnaires.again")}
              </Badge>
            </Tooltip>
          )}
          {canOpen && (
            <Button onClick={() => onOpen(q)} variant={q.count > 0 ? "light" : "filled"}>
              {q.count > 0 && !q.finished ? t("questionnaires.continue") : t("questionnaires.start")}
            </Button>
          )}
        </Group>
      </Group>
    </Paper>
  );
}

/** The learner's next calendar date of this training (issue 'Training calendar'), with its .ics. */
function NextDate({ trainingId }: { trainingId: number }) {
  const { t } = useTranslation();
  const next = useMyEvents().data?.find((e) => e.Training.id === trainingId);
  if (!next) return null;
  return (
    // The icon stays beside the date where the text wraps (phones, longer languages).
    <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="next-date">
      <IconCalendarEvent size={18} style={{ flexShrink: 0, marginTop: 2 }} aria-hidden />
      <Group gap="xs" style={{ minWidth: 0 }}>
        <Text size="sm" fw={600}>
          {t("calendar.nextDate", { when: eventWhen(next, t, settings["time-zone"]) })}
          {next.Location ? ` · ${next.Location}` : ""}
        </Text>
        <Anchor
          size="sm"
          {...freshLink(() => authedUrl(api.calendarIcs, { params: { id: next.ID } }))}
          download={`event-${next.ID}.ics`}
        >
          {t("calendar.ics")}
        </Anchor>
      </Group>
    </Group>
  );
}

/**
 * The law that makes the training mandatory, for staff and inspectors (show-legal-compliance):
 * the label translated, the law as the content states it.
 */
function LegalBasis({ law }: { law: string }) {
  const { t } = useTranslation();
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" data-testid="legal-basis">
      <IconScale size={20} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={700}>
          {t("training.legalBasis")}
        </Text>
        <Text size="sm" style={{ overflowWrap: "anywhere" }}>
          {law}
        </Text>
      </div>
    </Group>
  );
}

export default function TrainingPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const params = useParams();
  const topicId = Number(params.topicId);
  const trainingId = Number(params.trainingId);
  const { data, isPending, isError } = useTraining(topicId, trainingId);
  const [wikiFor, setWikiFor] = useState<Questionnaire | null>(null);
  if (isError) return <NotFoundPage />;
  if (isPending) return <Skeleton h={300} />;
  const { training, questionnaires } = data;
  // A finished, editable questionnaire opens for practice: counts and certificates stay as they are.
  const quizPath = (q: Questionnaire) =>
    `/topic/${topicId}/training/${trainingId}/questionnaire/${q.id}${q.finished && q.editable ? "?practice=true" : ""}`;
  const open = (q: Questionnaire) => {
    // With a wiki article and show-read-wiki-first, offer reading it first (spec §2).
    if (training.wiki_link && settings["show-read-wiki-first"]) setWikiFor(q);
    else navigate(quizPath(q));
  };
  return (
    <>
      <PageHeader title={<ContentName name={training.name} lang={training.name_lang} />} />
      <Paper withBorder p="md" mb="lg">
        <Group wrap="nowrap" align="flex-start">
          <ContentIcon name={training.icon} size={56} />
          <Stack gap={6} style={{ flex: 1, minWidth: 0 }}>
            {settings["show-legal-compliance"] && training.legal_basis && <LegalBasis law={training.legal_basis} />}
            {training.description && <Text>{training.description}</Text>}
            <Group gap="xs">
              {training.certificate ? (
                <ExpiryBadge certificate={training.certificate} />
              ) : (
                <Badge color={NO_CERTIFICATE_COLOUR} variant="outline" size="lg">
                  {t("training.noCertificate")}
                </Badge>
              )}
              {settings["show-points"] && training.points > 0 && (
                <Badge variant="light" size="lg">
                  {t("training.points", { points: training.points })}
                </Badge>
              )}
              <Badge variant="default" size="lg">
                {t("training.validity", { months: training.validity_months })}
              </Badge>
            </Group>
            <NextDate trainingId={training.id} />
          </Stack>
        </Group>
      </Paper>

      {training.passive ? (
        <Alert icon={<IconInfoCircle />} color="grape" variant="light" data-testid="passive-note">
          {t("questionnaires.passiveNote")}
        </Alert>
      ) : questionnaires.length === 0 ? (
        <Alert icon={<IconInfoCircle />} color="gray" variant="light">
          {t("questionnaires.none")}
        </Alert>
      ) : (
        <Stack gap="sm">
          {training.renewal && (
            <Alert color="orange" variant="light">
              {t("questionnaires.renewalNote")}
            </Alert>
          )}
          {questionnaires.map((q) => (
            <QuestionnaireRow key={q.id} q={q} onOpen={open} />
          ))}
        </Stack>
      )}

      {settings["show-external-trainings"] && (
        <PartnerCourses topicId={topicId} trainingId={trainingId} certificateId={training.certificate?.id ?? null} />
      )}

      <Modal opened={wikiFor !== null} onClose={() => setWikiFor(null)} title={t("wikiDialog.title")} centered>
        <Text mb="lg">{t("wikiDialog.text")}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => wikiFor && navigate(quizPath(wikiFor))}>
            {t("wikiDialog.toQuiz")}
          </Button>
          <Button onClick={() => training.wiki_link && navigate(training.wiki_link)}>{t("wikiDialog.toWiki")}</Button>
        </Group>
      </Modal>
    </>
  );
}

import { type AuthoringTree, api, CONTENT_LIMITS, type TopicWrite, type TrainingWrite } from "@carecampus/contract";
import {
  Badge,
  Button,
  ColorInput,
  Group,
  Modal,
  NumberInput,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { type GetInputPropsReturnType, useForm } from "@mantine/form";
import { IconLanguage, IconPencil, IconPlus } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, lazy, type ReactNode, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { call, showSuccess } from "../../api/client";
import { ContentIcon } from "../../components/ContentIcon";
import { PageHeader } from "../../components/PageHeader";
import { useFocusBack } from "../../components/useFocusBack";
import { adminListKeys } from "../../queries/admin";
import { useContentLanguages } from "../../queries/content-languages";
import { invalidateLearning } from "../../queries/learning";
import { authoringKeys, useAuthoringTree } from "./queries";

const TrainingTranslationsModal = lazy(() => import("./TrainingTranslationsModal"));

type Topic = AuthoringTree["topics"][number];
type Training = Topic["trainings"][number];

function NewQuestionnaire({ training, onClose }: { training: Training; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const form = useForm({ mode: "controlled", initialValues: { name: "" } });
  const { name } = form.getValues();
  return (
    <ContentDialog
      title={t("authoring.newQuestionnaireIn", { training: training.name })}
      onClose={onClose}
      save={() => call(api.authoringQuestionnaireCreate, { body: { training_id: training.id, name } })}
      onSaved={(qn) => navigate(`/authoring/questionnaire/${qn.id}`)}
      submitLabel={t("authoring.create")}
      canSubmit={name.trim() !== ""}
    >
      <div>
        <TextInput
          label={t("authoring.name")}
          {...form.getInputProps("name")}
          maxLength={CONTENT_LIMITS.name}
          required
          data-autofocus
        />
        <Text size="sm" c="dimmed" mt="xs">
          {t("authoring.draftNote")}
        </Text>
      </div>
    </ContentDialog>
  );
}

/**
 * The dialog of new or changed content: its fields, then cancel and save. Saving refreshes
 * authoring, the learners' screens and the catalogue of topics and trainings, then `onSaved` (by default: say so and close); a refusal
 * is said by the client's toast and keeps the dialog.
 */
function ContentDialog<T>({
  title,
  onClose,
  save,
  onSaved,
  submitLabel,
  canSubmit = true,
  children,
}: {
  title: string;
  onClose: () => void;
  save: () => Promise<T>;
  onSaved?: (saved: T) => void;
  submitLabel?: string;
  canSubmit?: boolean;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  useFocusBack();
  const queryClient = useQueryClient();
  const saving = useMutation({
    mutationFn: () => save(),
    // A refusal: the client's toast says what went wrong, the dialog stays.
    onSuccess: (saved) => {
      void queryClient.invalidateQueries({ queryKey: authoringKeys.tree });
      void invalidateLearning(queryClient);
      // The topics and trainings the other screens choose from (a user's training matrix, the
      // progress overview, a date's training), kept ten minutes: a training just made is
      // assigned next, so they are asked for again.
      void queryClient.invalidateQueries({ queryKey: adminListKeys.catalogue });
      if (onSaved) onSaved(saved);
      else {
        showSuccess(t("authoring.saved"));
        onClose();
      }
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (canSubmit) saving.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={title}>
      <form onSubmit={submit}>
        <Stack>
          {children}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={saving.isPending} disabled={!canSubmit}>
              {submitLabel ?? t("common.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The name and icon every topic and training has: their inputs' props from the dialog's form. */
function NameAndIcon({ field }: { field: (path: "name" | "icon") => GetInputPropsReturnType }) {
  const { t } = useTranslation();
  return (
    <>
      <TextInput label={t("authoring.name")} {...field("name")} required maxLength={CONTENT_LIMITS.name} />
      <TextInput label={t("authoring.icon")} description={t("authoring.iconHelp")} {...field("icon")} required />
    </>
  );
}

function TopicModal({ topic, onClose }: { topic: Topic | null; onClose: () => void }) {
  const { t } = useTranslation();
  const form = useForm<TopicWrite>({
    mode: "controlled",
    initialValues: { name: topic?.name ?? "", icon: topic?.icon ?? "", color: topic?.color ?? "#0f766e" },
  });
  const save = () => {
    const body = form.getValues();
    return topic
      ? call(api.authoringTopicSave, { params: { id: topic.id }, body })
      : call(api.authoringTopicCreate, { body });
  };
  return (
    <ContentDialog title={topic ? t("authoring.editTopic") : t("authoring.newTopic")} onClose={onClose} save={save}>
      <NameAndIcon field={form.getInputProps} />
      <ColorInput
        label={t("authoring.color")}
        {...form.getInputProps("color")}
        format="hex"
        eyeDropperButtonProps={{ "aria-label": t("authoring.pickColor") }}
      />
    </ContentDialog>
  );
}

function TrainingModal({
  topicId,
  training,
  onClose,
}: {
  topicId: number;
  training: Training | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const form = useForm<TrainingWrite>({
    mode: "controlled",
    initialValues: {
      topic_id: topicId,
      name: training?.name ?? "",
      icon: training?.icon ?? "",
      validity_months: training?.validity_months ?? 12,
      passive: training?.passive ?? false,
      points: training?.points ?? 0,
      wiki_link: training?.wiki_link ?? null,
      legal_basis: training?.legal_basis ?? null,
    },
  });
  const v = form.getValues();
  const save = () => {
    const body = form.getValues();
    return training
      ? call(api.authoringTrainingSave, { params: { id: training.id }, body })
      : call(api.authoringTrainingCreate, { body });
  };
  /** An empty text field is 'none' (null). */
  const optionalText = (path: "wiki_link" | "legal_basis") => ({
    value: v[path] ?? "",
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      form.setFieldValue(path, e.currentTarget.value === "" ? null : e.currentTarget.value),
  });
  return (
    <ContentDialog
      title={training ? t("authoring.editTraining") : t("authoring.newTraining")}
      onClose={onClose}
      save={save}
    >
      <NameAndIcon field={form.getInputProps} />
      <NumberInput
        label={t("authoring.validity")}
        min={CONTENT_LIMITS.validityMonthsMin}
        max={CONTENT_LIMITS.validityMonthsMax}
        value={v.validity_months}
        onChange={(n) => form.setFieldValue("validity_months", Number(n) || 1)}
      />
      <NumberInput
        label={t("authoring.points")}
        min={0}
        max={CONTENT_LIMITS.pointsMax}
        value={v.points}
        onChange={(n) => form.setFieldValue("points", Number(n) || 0)}
      />
      <Switch label={t("authoring.passive")} {...form.getInputProps("passive", { type: "checkbox" })} />
      <TextInput label={t("authoring.wikiLink")} placeholder="/wiki/…" {...optionalText("wiki_link")} />
      <TextInput
        label={t("authoring.legalBasis")}
        description={t("authoring.legalBasisHelp")}
        placeholder="§ 12 ArbSchG"
        maxLength={CONTENT_LIMITS.legalBasis}
        {...optionalText("legal_basis")}
      />
    </ContentDialog>
  );
}

/** Authoring: every training with its questionnaires; a new questionnaire where the caller may write one. */
export default function AuthoringPage() {
  const { t } = useTranslation();
  const { data, isPending } = useAuthoringTree();
  const [newIn, setNewIn] = useState<Training | null>(null);
  const [topicEdit, setTopicEdit] = useState<Topic | "new" | null>(null);
  const [trainingEdit, setTrainingEdit] = useState<{ topicId: number; training: Training | null } | null>(null);
  const [translating, setTranslating] = useState<Training | null>(null);
  // Translation files only where the installation has content languages besides German.
  const translatable = (useContentLanguages().data?.languages ?? []).some((l) => l !== "de");
  if (isPending || !data) return <Skeleton h={320} />;
  const mayAdd = data.edits_common || data.facility_id !== null;
  return (
    <>
      <PageHeader title={t("authoring.title")} />
      <Text mb="md">
        {data.edits_common
          ? t("authoring.introCommon")
          : mayAdd
            ? t("authoring.introFacility")
            : t("authoring.introRead")}
      </Text>
      {data.edits_common && (
        <Group mb="md">
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setTopicEdit("new")}>
            {t("authoring.newTopic")}
          </Button>
        </Group>
      )}
      <Stack gap="lg">
        {data.topics.map((topic) => (
          <section key={topic.id} aria-labelledby={`topic-${topic.id}`}>
            <Group gap="sm" mb="xs">
              <ContentIcon name={topic.icon} size={32} />
              <Title order={2} size="h4" id={`topic-${topic.id}`}>
                {topic.name}
              </Title>
              {data.edits_common && (
                <>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    leftSection={<IconPencil size={14} />}
                    onClick={() => setTopicEdit(topic)}
                  >
                    {t("authoring.editTopic")}
                  </Button>
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    leftSection={<IconPlus size={14} />}
                    onClick={() => setTrainingEdit({ topicId: topic.id, training: null })}
                  >
                    {t("authoring.newTraining")}
                  </Button>
                </>
              )}
            </Group>
            <Stack gap="xs">
              {topic.trainings.map((training) => (
                <Paper key={training.id} withBorder p="sm" data-testid="authoring-training">
                  <Group justify="space-between" wrap="wrap" gap="xs">
                    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
                      <ContentIcon name={training.icon} size={28} />
                      <Text fw={600}>{training.name}</Text>
                    </Group>
                    <Group gap="xs">
                      {data.edits_common && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          onClick={() => setTrainingEdit({ topicId: topic.id, training })}
                        >
                          {t("authoring.editTraining")}
                        </Button>
                      )}
                      {translatable && training.questionnaires.some((q) => q.editable) && (
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          leftSection={<IconLanguage size={14} aria-hidden />}
                          onClick={() => setTranslating(training)}
                        >
                          {t("authoring.trainingTranslations.open")}
                        </Button>
                      )}
                      {mayAdd && !training.passive && (
                        <Button
                          size="compact-sm"
                          variant="light"
                          leftSection={<IconPlus size={14} />}
                          onClick={() => setNewIn(training)}
                        >
                          {t("authoring.newQuestionnaire")}
                        </Button>
                      )}
                    </Group>
                  </Group>
                  {training.questionnaires.length > 0 && (
                    <Stack gap={4} mt="xs" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
                      {training.questionnaires.map((q) => (
                        <Group component="li" key={q.id} gap="xs" wrap="wrap">
                          <Link to={`/authoring/questionnaire/${q.id}`}>
                            {/^\d+$/.test(q.name) ? t("questionnaires.name", { name: q.name }) : q.name}
                          </Link>
                          {q.origin === "facility" && (
                            <Badge size="sm" variant="default" style={{ textTransform: "none" }}>
                              {t("authoring.origin.facility")}
                            </Badge>
                          )}
                          {q.status === "draft" && (
                            <Badge size="sm" variant="default" style={{ textTransform: "none" }}>
                              {t("authoring.status.draft")}
                            </Badge>
                          )}
                          {q.editable && (
                            <Badge
                              size="sm"
                              variant="default"
                              style={{ textTransform: "none" }}
                              leftSection={<IconPencil size={10} />}
                            >
                              {t("authoring.editableMark")}
                            </Badge>
                          )}
                        </Group>
                      ))}
                    </Stack>
                  )}
                </Paper>
              ))}
            </Stack>
          </section>
        ))}
      </Stack>
      {newIn && <NewQuestionnaire training={newIn} onClose={() => setNewIn(null)} />}
      {translating && (
        <Suspense fallback={null}>
          <TrainingTranslationsModal training={translating} onClose={() => setTranslating(null)} />
        </Suspense>
      )}
      {topicEdit && <TopicModal topic={topicEdit === "new" ? null : topicEdit} onClose={() => setTopicEdit(null)} />}
      {trainingEdit && (
        <TrainingModal
          topicId={trainingEdit.topicId}
          training={trainingEdit.training}
          onClose={() => setTrainingEdit(null)}
        />
      )}
    </>
  );
}

import { type AuthoringQuestionInput, type AuthoringQuestionnaire, api } from "@carecampus/contract";
import { ActionIcon, Alert, Badge, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from "@mantine/core";
import {
  IconArrowDown,
  IconArrowUp,
  IconEye,
  IconFileImport,
  IconLanguage,
  IconPencil,
  IconPlus,
  IconTrash,
} from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams, useSearchParams } from "react-router";
import { call, showSuccess } from "../../api/client";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { useContentLanguages } from "../../queries/content-languages";
import { invalidateLearning } from "../../queries/learning";
import { ImportModal } from "./ImportModal";
import { PreviewModal } from "./PreviewModal";
import { draftOf, QuestionForm } from "./QuestionForm";
import { authoringKeys, useAuthoringQuestionnaire } from "./queries";
import { TranslationsDialog } from "./TranslationsDialog";

/** The editor of one questionnaire (lazy: only those who may edit or read it load it). */
export default function QuestionnaireEditorPage() {
  const { t } = useTranslation();
  const id = Number(useParams().id);
  const queryClient = useQueryClient();
  const { data: qn, isPending, isError } = useAuthoringQuestionnaire(id);
  // ?question=ID (the 'fix this question' link of a help request) opens that question's form.
  const [search] = useSearchParams();
  const [editing, setEditing] = useState<number | "new" | null>(() => Number(search.get("question")) || null);
  /** Counts the new-question forms opened one after another, so each starts empty. */
  const [newForm, setNewForm] = useState(0);
  const [name, setName] = useState<string | null>(null);
  const [preview, setPreview] = useState(false);
  const [importing, setImporting] = useState(false);
  const [removing, setRemoving] = useState<number | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [translating, setTranslating] = useState<number | null>(null);
  // Translations where the installation has content languages besides German (issue 31).
  const languages = useContentLanguages();
  const translatable = (languages.data?.languages.length ?? 0) > 1;
  if (isError) return <NotFoundPage />;
  if (isPending) return <Skeleton h={320} />;
  const translatingQuestion = qn.questions.find((q) => q.id === translating);

  const update = (next: AuthoringQuestionnaire) => {
    queryClient.setQueryData(authoringKeys.questionnaire(id), next);
    void queryClient.invalidateQueries({ queryKey: authoringKeys.tree });
    void invalidateLearning(queryClient);
  };
  /** Saves a question; with `next`, the following question opens in the editor (after the last, a new one). */
  const saveQuestion = async (questionId: number | "new", input: AuthoringQuestionInput, next: boolean) => {
    const res =
      questionId === "new"
        ? await call(api.authoringQuestionCreate, { params: { id }, body: input })
        : await call(api.authoringQuestionSave, { params: { id: questionId }, body: input });
    update(res.questionnaire);
    showSuccess(res.versioned ? t("authoring.savedVersion") : t("authoring.saved"));
    if (!next) return setEditing(null);
    const ids = res.questionnaire.questions.map((q) => q.id);
    const at = questionId === "new" ? -1 : ids.indexOf(questionId);
    setEditing(at >= 0 && at + 1 < ids.length ? (ids[at + 1] as number) : "new");
    // A new question after a new one: a fresh, empty form.
    setNewForm((n) => n + 1);
  };
  const reorder = async (from: number, to: number) => {
    const order = qn.questions.map((q) => q.id);
    const [moved] = order.splice(from, 1);
    if (moved === undefined) return;
    order.splice(to, 0, moved);
    update(await call(api.authoringQuestionnairePatch, { params: { id }, body: { question_order: order } }));
  };
  const rename = async () => {
    if (name === null || name.trim() === "") return;
    update(await call(api.authoringQuestionnairePatch, { params: { id }, body: { name } }));
    setName(null);
    showSuccess(t("authoring.saved"));
  };
  const publish = async () => {
    update(await call(api.authoringQuestionnairePublish, { params: { id } }));
    setPublishing(false);
    showSuccess(t("authoring.published"));
  };
  const remove = async (questionId: number) => {
    update(await call(api.authoringQuestionDelete, { params: { id: questionId } }));
    setRemoving(null);
  };
  const ed = qn.editable;

  return (
    <>
      <PageHeader title={qn.name}>
        <Badge variant="default" size="lg" data-testid="status" style={{ textTransform: "none" }}>
          {t(`authoring.status.${qn.status}`)}
        </Badge>
      </PageHeader>
      <Stack gap="md">
        <Group gap="xs">
          <Text c="dimmed">{qn.training_name}</Text>
          <Badge variant="default" style={{ textTransform: "none" }}>
            {t(`authoring.origin.${qn.origin}`)}
          </Badge>
          <Button component={Link} to="/authoring" variant="subtle" size="compact-sm">
            {t("authoring.backToList")}
          </Button>
        </Group>
        {!ed && (
          <Alert color="gray" variant="light">
            {t("authoring.readOnly")}
          </Alert>
        )}
        {ed && (
          <Paper withBorder p="md">
            <Group align="flex-end" wrap="wrap">
              <TextInput
                style={{ flex: 1, minWidth: 200 }}
                label={t("authoring.name")}
                value={name ?? qn.name}
                onChange={(e) => setName(e.currentTarget.value)}
              />
              <Button variant="default" onClick={() => void rename()} disabled={name === null || name.trim() === ""}>
                {t("authoring.rename")}
              </Button>
            </Group>
          </Paper>
        )}
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconEye size={16} />}
            disabled={qn.questions.length === 0}
            onClick={() => setPreview(true)}
          >
            {t("authoring.preview.button")}
          </Button>
          {ed && (
            <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
              {t("authoring.import.button")}
            </Button>
          )}
          {ed && qn.status === "draft" && (
            <Button onClick={() => setPublishing(true)} disabled={qn.questions.length === 0}>
              {t("authoring.publish")}
            </Button>
          )}
        </Group>
        {ed && (
          <Alert color="blue" variant="light" data-testid="renewal-note">
            {t("authoring.renewalNote", { count: qn.certificates_held })}
          </Alert>
        )}
        <Title order={2} size="h4">
          {t("authoring.questions", { count: qn.questions.length })}
        </Title>
        {qn.questions.length === 0 && <Text c="dimmed">{t("authoring.noQuestions")}</Text>}
        {qn.questions.map((q, i) =>
          editing === q.id ? (
            <QuestionForm
              key={q.id}
              initial={draftOf(q)}
              answered={q.answered}
              onSave={(input, next) => saveQuestion(q.id, input, next)}
              onCancel={() => setEditing(null)}
            />
          ) : (
            <Paper key={q.id} withBorder p="sm" data-testid="question-item">
              {/* The actions move below the text where both do not fit (phones): words stay whole. */}
              <Group justify="space-between" align="flex-start" gap="xs">
                <div style={{ minWidth: 0, flex: "1 1 15rem" }}>
                  <Text fw={600} style={{ overflowWrap: "break-word" }}>
                    {i + 1}. {q.text}
                  </Text>
                  <Text size="sm" c="dimmed">
                    {q.type === "multiple" ? t("quiz.multiple") : t("quiz.single")} ·{" "}
                    {t("authoring.answerCount", { count: q.answers.length })}
                    {q.answered ? ` · ${t("authoring.answered")}` : ""}
                  </Text>
                </div>
                {ed && (
                  <ActionIcon.Group>
                    <ActionIcon
                      variant="default"
                      size="lg"
                      disabled={i === 0}
                      onClick={() => void reorder(i, i - 1)}
                      aria-label={t("authoring.moveUp")}
                    >
                      <IconArrowUp size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="default"
                      size="lg"
                      disabled={i === qn.questions.length - 1}
                      onClick={() => void reorder(i, i + 1)}
                      aria-label={t("authoring.moveDown")}
                    >
                      <IconArrowDown size={16} />
                    </ActionIcon>
                    <ActionIcon
                      variant="default"
                      size="lg"
                      onClick={() => setEditing(q.id)}
                      aria-label={t("authoring.editQuestion", { n: i + 1 })}
                    >
                      <IconPencil size={16} />
                    </ActionIcon>
                    {translatable && (
                      <ActionIcon
                        variant="default"
                        size="lg"
                        onClick={() => setTranslating(q.id)}
                        aria-label={t("authoring.translations.open", { n: i + 1 })}
                        data-testid="translations-button"
                      >
                        <IconLanguage size={16} />
                      </ActionIcon>
                    )}
                    <ActionIcon
                      variant="default"
                      size="lg"
                      onClick={() => setRemoving(q.id)}
                      aria-label={t("authoring.removeQuestion", { n: i + 1 })}
                    >
                      <IconTrash size={16} />
                    </ActionIcon>
                  </ActionIcon.Group>
                )}
              </Group>
            </Paper>
          ),
        )}
        {ed &&
          (editing === "new" ? (
            <QuestionForm
              key={`new-${newForm}`}
              initial={draftOf(null)}
              answered={false}
              onSave={(input, next) => saveQuestion("new", input, next)}
              onCancel={() => setEditing(null)}
            />
          ) : (
            <Group>
              <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing("new")}>
                {t("authoring.addQuestion")}
              </Button>
            </Group>
          ))}
      </Stack>
      {preview && <PreviewModal questionnaire={qn} onClose={() => setPreview(false)} />}
      {translatingQuestion && (
        <TranslationsDialog question={translatingQuestion} onClose={() => setTranslating(null)} />
      )}
      {importing && <ImportModal questionnaireId={id} onClose={() => setImporting(false)} onImported={update} />}
      <ConfirmDialog
        opened={publishing}
        title={t("authoring.publishTitle")}
        message={t("authoring.renewalNote", { count: qn.certificates_held })}
        confirmLabel={t("authoring.publish")}
        onConfirm={publish}
        onClose={() => setPublishing(false)}
      />
      <ConfirmDialog
        opened={removing !== null}
        title={t("authoring.removeTitle")}
        message={t("authoring.removeText")}
        confirmLabel={t("authoring.remove")}
        danger
        onConfirm={() => (removing !== null ? remove(removing) : Promise.resolve())}
        onClose={() => setRemoving(null)}
      />
    </>
  );
}

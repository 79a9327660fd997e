import {
  type AuthoringQuestionnaire,
  api,
  type BankCategoryMode,
  type QuestionBankPreview,
} from "@carecampus/contract";
import {
  Alert,
  Badge,
  Button,
  FileButton,
  Group,
  List,
  Modal,
  Radio,
  SegmentedControl,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { IconFileImport, IconPhoto } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../../api/client";
import { RefusalList } from "../../components/RefusalList";
import { useFocusBack } from "../../components/useFocusBack";

type Format = "moodle-xml" | "gift";

/**
 * Questions from another LMS (Moodle XML, GIFT): the file is read, the preview lists what will
 * be imported and what cannot (unsupported types named), and nothing is written until confirmed.
 */
export function ImportModal({
  questionnaireId,
  onClose,
  onImported,
}: {
  questionnaireId: number;
  onClose: () => void;
  /** The questionnaire after the import (new questionnaires of its categories appear in the tree). */
  onImported: (q: AuthoringQuestionnaire) => void;
}) {
  const { t } = useTranslation();
  useFocusBack();
  const [format, setFormat] = useState<Format>("moodle-xml");
  const [file, setFile] = useState<{ name: string; text: string } | null>(null);
  const [preview, setPreview] = useState<QuestionBankPreview | null>(null);
  const [categories, setCategories] = useState<BankCategoryMode>("flatten");
  const read = useMutation({
    mutationFn: (body: { format: Format; text: string }) =>
      call(api.authoringBankPreview, { params: { id: questionnaireId }, body }),
    onSuccess: setPreview,
    // The client showed the error; there is nothing to import.
    onError: () => setPreview(null),
  });
  const importing = useMutation({
    mutationFn: (body: { format: Format; text: string; categories: BankCategoryMode }) =>
      call(api.authoringBankImport, { params: { id: questionnaireId }, body }),
    // A failure: the client showed the error.
    onSuccess: (res) => {
      onImported(res.questionnaire);
      showSuccess(
        res.created.length > 0
          ? t("authoring.import.doneCreated", { count: res.imported, questionnaires: res.created.length })
          : t("authoring.import.done", { count: res.imported }),
      );
      onClose();
    },
  });
  const busy = read.isPending || importing.isPending;

  const choose = async (f: File | null) => {
    if (!f) return;
    const text = await f.text();
    const guessed: Format = /\.xml$/i.test(f.name) || text.trimStart().startsWith("<") ? "moodle-xml" : "gift";
    setFormat(guessed);
    setFile({ name: f.name, text });
    read.mutate({ format: guessed, text });
  };
  const reread = (next: Format) => {
    setFormat(next);
    if (file) read.mutate({ format: next, text: file.text });
  };

  return (
    <Modal opened onClose={onClose} title={t("authoring.import.title")} size="lg">
      <Stack gap="md">
        <Text size="sm">{t("authoring.import.intro")}</Text>
        <SegmentedControl
          aria-label={t("authoring.import.format")}
          value={format}
          onChange={(v) => reread(v === "gift" ? "gift" : "moodle-xml")}
          data={[
            { value: "moodle-xml", label: "Moodle XML" },
            { value: "gift", label: "GIFT" },
          ]}
        />
        <Group>
          <FileButton onChange={(f) => void choose(f)} accept=".xml,.txt,.gift,text/xml,text/plain">
            {(props) => (
              <Button {...props} variant="default" leftSection={<IconFileImport size={16} />} loading={busy}>
                {file ? file.name : t("authoring.import.choose")}
              </Button>
            )}
          </FileButton>
        </Group>
        {preview && (
          <Stack gap="sm" data-testid="import-preview" aria-live="polite">
            <Title order={3} size="h5">
              {t("authoring.import.will", { count: preview.questions.length })}
            </Title>
            <List size="sm" spacing={4}>
              {preview.questions.map((q) => (
                <List.Item key={q.number}>
                  {q.text}{" "}
                  <Badge size="xs" variant="default" style={{ textTransform: "none" }}>
                    {q.type === "multiple" ? t("quiz.multiple") : t("quiz.single")}
                  </Badge>
                  {q.image && (
                    <>
                      {" "}
                      <Badge
                        size="xs"
                        variant="default"
                        leftSection={<IconPhoto size={12} aria-hidden />}
                        style={{ textTransform: "none" }}
                      >
                        {t("authoring.import.image", { name: q.image.name })}
                      </Badge>
                    </>
                  )}
                </List.Item>
              ))}
            </List>
            <RefusalList
              title={t("authoring.import.cannot", { count: preview.skipped.length })}
              items={preview.skipped.map((s) => ({
                key: `${s.number}-${s.name}`,
                name: s.name,
                reason:
                  s.reason === "unsupported-type"
                    ? t("authoring.import.unsupported", {
                        // The type in words ("Kurzantwort"); an id no list names, as the file has it.
                        type: t(`authoring.import.types.${s.source_type}`, { defaultValue: s.source_type }),
                      })
                    : t(`authoring.import.reasons.${s.reason}`, {
                        defaultValue: s.detail ?? s.reason,
                        detail: s.detail ?? "",
                      }),
              }))}
            />
            {preview.notes.length > 0 && (
              <Alert color="blue" variant="light" title={t("authoring.import.notesTitle")} data-testid="import-notes">
                <List size="sm" spacing={4}>
                  {preview.notes.map((n) => (
                    <List.Item key={`${n.code}-${n.number}-${n.detail}`}>
                      {n.number !== null && `${t("authoring.import.noteQuestion", { number: n.number })}: `}
                      {t(`authoring.import.notes.${n.code}`, { defaultValue: n.code, detail: n.detail ?? "" })}
                    </List.Item>
                  ))}
                </List>
              </Alert>
            )}
            {preview.categories.length > 1 && (
              <Radio.Group
                label={t("authoring.import.categories.label")}
                description={t("authoring.import.categories.help", {
                  names: preview.categories.map((c) => c.name).join(", "),
                })}
                value={categories}
                onChange={(v) => setCategories(v === "questionnaires" ? "questionnaires" : "flatten")}
              >
                <Stack gap={6} mt={6}>
                  <Radio value="flatten" label={t("authoring.import.categories.flatten")} />
                  <Radio
                    value="questionnaires"
                    label={t("authoring.import.categories.questionnaires", { count: preview.categories.length })}
                  />
                </Stack>
              </Radio.Group>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t("common.cancel")}
              </Button>
              <Button
                onClick={() =>
                  file &&
                  importing.mutate({
                    format,
                    text: file.text,
                    categories: preview.categories.length > 1 ? categories : "flatten",
                  })
                }
                loading={busy}
                disabled={preview.questions.length === 0}
              >
                {t("authoring.import.confirm", { count: preview.questions.length })}
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Modal>
  );
}

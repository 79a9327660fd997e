import {
  api,
  endpointUrl,
  SOURCE_LANGUAGE,
  type TranslationFileFormat,
  type TranslationImportReport,
} from "@carecampus/contract";
import { Button, FileButton, Group, Modal, NativeSelect, Stack, Text, Title } from "@mantine/core";
import { IconDownload, IconFileImport } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl, freshLink, showError, showSuccess } from "../../api/client";
import { postFile } from "../../api/file-upload";
import { languageName } from "../../components/languageName";
import { RefusalList } from "../../components/RefusalList";
import { useFocusBack } from "../../components/useFocusBack";
import { useContentLanguages } from "../../queries/content-languages";
import { NameTranslations } from "./NameTranslations";

/** A file's format by its name or type: CSV, else XLIFF. */
function formatOf(file: File): TranslationFileFormat {
  return /\.csv$/i.test(file.name) || file.type === "text/csv" ? "csv" : "xliff";
}

const TYPES: Record<TranslationFileFormat, string> = { xliff: "application/xliff+xml", csv: "text/csv" };

/**
 * A training's translations (issue 31): the names learners choose from, translated in place; and
 * as a file for translators the names and questions the author may edit, German beside the translation, as XLIFF for a translation program or CSV for a
 * spreadsheet; the filled file comes back through a preview that names what it would change and
 * what it refuses, and nothing is written until confirmed.
 */
export default function TrainingTranslationsModal({
  training,
  onClose,
}: {
  training: { id: number; name: string };
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  useFocusBack();
  const queryClient = useQueryClient();
  const languages = (useContentLanguages().data?.languages ?? []).filter((l) => l !== SOURCE_LANGUAGE);
  const [chosen, setChosen] = useState<string | null>(null);
  const lang = chosen ?? languages[0] ?? null;
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<TranslationImportReport | null>(null);
  const previewTitle = useRef<HTMLHeadingElement>(null);
  // The file input forgets its file after each choice: the same file, fixed, can be chosen again.
  const resetInput = useRef<() => void>(null);

  const send = (f: File, l: string, dryRun: boolean) => {
    const format = formatOf(f);
    const url = endpointUrl(api.authoringTrainingTranslationsImport, {
      params: { id: training.id },
      query: { lang: l, format, dry_run: dryRun ? "true" : undefined },
    });
    return postFile<TranslationImportReport>(url, f, TYPES[format]);
  };
  const read = useMutation({
    mutationFn: ({ f, l }: { f: File; l: string }) => send(f, l, true),
    onSuccess: setPreview,
    onError: (e) => {
      setPreview(null);
      showError(e);
    },
  });
  const apply = useMutation({
    mutationFn: ({ f, l }: { f: File; l: string }) => send(f, l, false),
    onSuccess: (report) => {
      void queryClient.invalidateQueries({ queryKey: ["authoring", "translations"] });
      showSuccess(t("authoring.trainingTranslations.done", { count: report.changed.length }));
      // Refused only now (the questions changed since the preview): the dialog stays and says so.
      if (report.refused.length > 0) setPreview({ ...report, changed: [] });
      else onClose();
    },
    onError: showError,
  });
  // The preview is what changed on the screen: the focus goes to its heading.
  useEffect(() => {
    if (preview) previewTitle.current?.focus();
  }, [preview]);

  const choose = (f: File | null) => {
    resetInput.current?.();
    if (!f || !lang) return;
    setFile(f);
    // The preview shown is always the chosen file's: none until its dry run answers.
    setPreview(null);
    read.mutate({ f, l: lang });
  };
  const downloadLink = (format: TranslationFileFormat) =>
    lang
      ? freshLink(() =>
          authedUrl(api.authoringTrainingTranslationsExport, { params: { id: training.id }, query: { lang, format } }),
        )
      : {};

  return (
    <Modal
      opened
      onClose={onClose}
      title={t("authoring.trainingTranslations.title", { name: training.name })}
      size="lg"
    >
      {languages.length === 0 || !lang ? (
        <Text>{t("authoring.translations.none")}</Text>
      ) : (
        <Stack gap="md">
          <Text size="sm">{t("authoring.trainingTranslations.intro")}</Text>
          <NativeSelect
            label={t("authoring.translations.language")}
            value={lang}
            onChange={(e) => {
              setChosen(e.currentTarget.value);
              setFile(null);
              setPreview(null);
            }}
            data={languages.map((l) => ({ value: l, label: languageName(l, i18n.language) }))}
            maw={360}
          />
          <NameTranslations trainingId={training.id} lang={lang} />
          <Stack gap={6}>
            <Title order={3} size="h5">
              {t("authoring.trainingTranslations.exportTitle")}
            </Title>
            <Group gap="xs">
              {(["xliff", "csv"] as const).map((format) => (
                <Button
                  key={format}
                  component="a"
                  {...downloadLink(format)}
                  download
                  variant="light"
                  leftSection={<IconDownload size={16} aria-hidden />}
                >
                  {t(`authoring.trainingTranslations.download.${format}`)}
                </Button>
              ))}
            </Group>
          </Stack>
          <Stack gap={6}>
            <Title order={3} size="h5">
              {t("authoring.trainingTranslations.importTitle")}
            </Title>
            <Text size="sm">{t("authoring.trainingTranslations.importHelp")}</Text>
            <Group>
              <FileButton
                resetRef={resetInput}
                onChange={choose}
                accept=".xlf,.xliff,.xml,.csv,application/xliff+xml,text/csv"
              >
                {(props) => (
                  <Button
                    {...props}
                    variant="default"
                    leftSection={<IconFileImport size={16} aria-hidden />}
                    loading={read.isPending}
                  >
                    {file ? file.name : t("authoring.trainingTranslations.choose")}
                  </Button>
                )}
              </FileButton>
            </Group>
          </Stack>
          {preview && file && (
            <Stack gap="sm" data-testid="translation-import-preview">
              <Title order={3} size="h5" ref={previewTitle} tabIndex={-1}>
                {t("authoring.trainingTranslations.will", { count: preview.changed.length })}
              </Title>
              {(preview.unchanged > 0 || preview.empty > 0) && (
                <Text size="sm">
                  {[
                    preview.unchanged > 0 &&
                      t("authoring.trainingTranslations.unchanged", { count: preview.unchanged }),
                    preview.empty > 0 && t("authoring.trainingTranslations.empty", { count: preview.empty }),
                  ]
                    .filter(Boolean)
                    .join(" · ")}
                </Text>
              )}
              <RefusalList
                title={t("authoring.trainingTranslations.refused", { count: preview.refused.length })}
                items={preview.refused.map((r) => ({
                  key: r.unit,
                  name: r.unit,
                  reason: t(`authoring.trainingTranslations.reasons.${r.reason}`),
                  detail: r.detail,
                }))}
              />
              <Group justify="flex-end">
                <Button variant="default" onClick={onClose}>
                  {t("common.cancel")}
                </Button>
                <Button
                  onClick={() => apply.mutate({ f: file, l: lang })}
                  loading={apply.isPending}
                  disabled={preview.changed.length === 0}
                >
                  {t("authoring.trainingTranslations.apply", { count: preview.changed.length })}
                </Button>
              </Group>
            </Stack>
          )}
        </Stack>
      )}
    </Modal>
  );
}

import {
  checkImportRows,
  generatePassword,
  type ImportCatalogue,
  type ImportDeletedUser,
  type ImportProblem,
  type ImportResult,
  type ImportRow,
} from "@carecampus/contract";
import { Alert, Button, Group, Loader, Modal, Stack, Switch, Text } from "@mantine/core";
import { IconAlertTriangle, IconFileSpreadsheet, IconUpload } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { showError, showSuccess } from "../../../api/client";
import { ConfirmDialog } from "../../../components/ConfirmDialog";
import { useFacilities } from "../../../queries/admin";
import { useActivities, useQualifications, userKeys } from "../queries";
import { type CsvEncoding, type Delimiter, templateCsv } from "./csv";
import { DeletionList } from "./DeletionList";
import { FileDrop } from "./FileDrop";
import { groupByRow, ImportPreview } from "./ImportPreview";
import { ImportDone, ImportRunning } from "./ImportStatus";
import { importProblems, postImport } from "./queries";
import type { LoadedFile } from "./read-file";

const ENCODING_NAMES: Record<CsvEncoding, string> = {
  "utf-8": "UTF-8",
  "utf-16le": "UTF-16 LE",
  "utf-16be": "UTF-16 BE",
  "windows-1252": "Windows-1252",
};
const DELIMITER_KEYS: Record<Delimiter, string> = { ";": "semicolon", ",": "comma", "\t": "tab" };

/** The names the file may use; null until all three lists are loaded. */
function useCatalogue() {
  const facilities = useFacilities(true);
  const activities = useActivities();
  const qualifications = useQualifications();
  const catalogue = useMemo<ImportCatalogue | null>(
    () =>
      facilities.data && activities.data && qualifications.data
        ? {
            facilities: facilities.data.map((f) => f.name),
            activities: activities.data.map((a) => a.name),
            qualifications: qualifications.data.map((q) => q.name),
          }
        : null,
    [facilities.data, activities.data, qualifications.data],
  );
  return { catalogue, failed: facilities.isError || activities.isError || qualifications.isError };
}

const random = (n: number) => (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % n;
const asciiLogin = (...parts: string[]) =>
  parts
    .join(".")
    .normalize("NFD")
    .replace(/[^a-zA-Z.]/g, "")
    .toLowerCase();

/** Offers the template file: the header and one row with names the lists really hold. */
function downloadTemplate(t: TFunction, catalogue: ImportCatalogue) {
  const name = t("usersImport.exampleName");
  const surname = t("usersImport.exampleSurname");
  const example: ImportRow = {
    surname,
    name,
    login: asciiLogin(name, surname),
    facility: catalogue.facilities[0] ?? "",
    activities: catalogue.activities.slice(0, 2),
    qualifications: catalogue.qualifications.slice(0, 1),
    password: generatePassword(random),
  };
  const url = URL.createObjectURL(new Blob([templateCsv(example)], { type: "text/csv;charset=utf-8" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = t("usersImport.templateFile");
  link.click();
  URL.revokeObjectURL(url);
}

interface UserImportProps {
  opened: boolean;
  onClose: () => void;
}

/**
 * The CSV user import of spec §5 for superchris: pick a file, see every row and its problems,
 * optionally delete the employees the file leaves out (after a dry run says how many), import.
 */
export default function UserImport({ opened, onClose }: UserImportProps) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { catalogue, failed } = useCatalogue();
  const [file, setFile] = useState<LoadedFile | null>(null);
  const [serverProblems, setServerProblems] = useState<ImportProblem[] | null>(null);
  const [deleteMissing, setDeleteMissing] = useState(false);
  const [onlyProblems, setOnlyProblems] = useState(false);
  const [checking, setChecking] = useState(false);
  /** Who the import would archive (the dry run's list), kept while the confirmation closes. */
  const [deletions, setDeletions] = useState<readonly ImportDeletedUser[]>([]);
  const [confirming, setConfirming] = useState(false);
  const [result, setResult] = useState<ImportResult | null>(null);

  // passwordRequired depends on which logins exist: only the server knows, and says so in its answer.
  const clientProblems = useMemo(
    () => (file && catalogue ? checkImportRows(file.rows, catalogue).filter((p) => p.code !== "passwordRequired") : []),
    [file, catalogue],
  );
  const problems = serverProblems ?? clientProblems;
  const byRow = useMemo(() => groupByRow(problems), [problems]);

  const refused = (error: unknown) => {
    const rows = importProblems(error);
    if (!rows) return showError(error);
    setServerProblems(rows);
    setOnlyProblems(true);
  };

  const importUsers = useMutation({
    mutationFn: (run: { rows: ImportRow[]; deleteMissing: boolean }) =>
      postImport(run.rows, { deleteMissing: run.deleteMissing, dryRun: false }),
    onSuccess: (done) => {
      setResult(done);
      showSuccess(t("success.usersImported"));
      void queryClient.invalidateQueries({ queryKey: userKeys.all });
    },
    onError: refused,
  });
  const busy = checking || importUsers.isPending;

  const start = async () => {
    if (!file) return;
    if (!deleteMissing) return importUsers.mutate({ rows: file.rows, deleteMissing: false });
    // Archiving takes people out of every list: a dry run names them for the confirmation first.
    setChecking(true);
    try {
      const preview = await postImport(file.rows, { deleteMissing: true, dryRun: true });
      if (preview.deleted > 0) {
        setDeletions(preview.deleted_users ?? []);
        setConfirming(true);
      } else importUsers.mutate({ rows: file.rows, deleteMissing: true });
    } catch (error) {
      refused(error);
    } finally {
      setChecking(false);
    }
  };

  const reset = () => {
    setFile(null);
    setServerProblems(null);
    setOnlyProblems(false);
    setResult(null);
    importUsers.reset();
  };
  const load = (loaded: LoadedFile) => {
    reset();
    setFile(loaded);
  };

  return (
    <Modal
      opened={opened}
      onClose={busy ? () => {} : onClose}
      onExitTransitionEnd={() => {
        reset();
        setDeleteMissing(false);
      }}
      closeOnEscape={!busy}
      closeOnClickOutside={!busy}
      withCloseButton={!busy}
      fullScreen
      title={
        <Text fw={700} size="lg">
          {t("usersImport.title")}
        </Text>
      }
    >
      {!file ? (
        <FileDrop onLoaded={load} onTemplate={catalogue ? () => downloadTemplate(t, catalogue) : null} />
      ) : (
        <Stack>
          <Group justify="space-between" wrap="wrap" gap="xs">
            <Group gap="xs" wrap="nowrap" miw={0}>
              <IconFileSpreadsheet size={24} style={{ flexShrink: 0 }} />
              <div style={{ minWidth: 0 }}>
                <Text fw={600} truncate data-testid="import-file-name">
                  {file.name}
                </Text>
                <Text size="sm" c="dimmed" data-testid="import-file-info">
                  {t("usersImport.fileInfo", {
                    encoding: ENCODING_NAMES[file.encoding],
                    delimiter: t(`usersImport.delimiters.${DELIMITER_KEYS[file.delimiter]}`),
                  })}
                </Text>
              </div>
            </Group>
            {!busy && (
              <Button variant="default" onClick={reset}>
                {result ? t("usersImport.again") : t("usersImport.otherFile")}
              </Button>
            )}
          </Group>

          {result ? (
            <>
              <ImportDone result={result} />
              <Group>
                <Button onClick={onClose}>{t("common.close")}</Button>
              </Group>
            </>
          ) : (
            <>
              <Group gap="lg" data-testid="import-summary">
                <Text>{t("usersImport.rowCount", { rows: file.rows.length })}</Text>
                {catalogue ? (
                  <Text c={byRow.size > 0 ? "red" : "teal"} fw={600}>
                    {t("usersImport.problemRowCount", { rows: byRow.size })}
                  </Text>
                ) : failed ? (
                  <Text c="red">{t("usersImport.listsFailed")}</Text>
                ) : (
                  <Group gap="xs">
                    <Loader size="xs" />
                    <Text c="dimmed">{t("usersImport.loadingLists")}</Text>
                  </Group>
                )}
              </Group>
              {byRow.size > 0 && (
                <Alert color="red" icon={<IconAlertTriangle size={18} />} data-testid="import-problems">
                  {serverProblems ? t("usersImport.refused") : t("usersImport.fixProblems")}
                </Alert>
              )}
              <Switch
                checked={deleteMissing}
                onChange={(e) => setDeleteMissing(e.currentTarget.checked)}
                disabled={busy}
                label={t("former.importSwitch")}
                description={t("former.importSwitchHint")}
              />
              <Group>
                <Button
                  leftSection={<IconUpload size={16} />}
                  onClick={() => void start()}
                  loading={busy}
                  disabled={!catalogue || byRow.size > 0}
                >
                  {t("usersImport.import")}
                </Button>
              </Group>
              {importUsers.isPending && <ImportRunning />}
              {byRow.size > 0 && (
                <Switch
                  checked={onlyProblems}
                  onChange={(e) => setOnlyProblems(e.currentTarget.checked)}
                  label={t("usersImport.onlyProblems")}
                />
              )}
              <ImportPreview
                rows={file.rows}
                rowNumbers={file.rowNumbers}
                problems={byRow}
                onlyProblems={onlyProblems && byRow.size > 0}
              />
            </>
          )}
        </Stack>
      )}
      <ConfirmDialog
        opened={confirming}
        title={t("former.importTitle")}
        message={t("former.importIntro", { count: deletions.length })}
        confirmLabel={t("former.importConfirmButton")}
        danger
        onConfirm={async () => {
          if (file) importUsers.mutate({ rows: file.rows, deleteMissing: true });
        }}
        onClose={() => setConfirming(false)}
      >
        <DeletionList users={deletions} />
        <Text mb="lg">{t("former.importConfirm")}</Text>
      </ConfirmDialog>
    </Modal>
  );
}

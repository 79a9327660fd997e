import { IMPORT_FIELDS } from "@carecampus/contract";
import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { Dropzone, type FileRejection } from "@mantine/dropzone";
import { IconAlertCircle, IconDownload, IconFileSpreadsheet, IconUpload, IconX } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { type FileProblem, type LoadedFile, readUserCsv } from "./read-file";

/**
 * What the file dialog offers. Browsers differ in what they call a .csv file (Excel on Windows
 * registers application/vnd.ms-excel), so the extension decides, in readUserCsv.
 */
const CSV_ACCEPT = { "text/csv": [".csv"], "application/vnd.ms-excel": [".csv"], "text/plain": [".csv"] };
/** Far above IMPORT_MAX_ROWS rows in UTF-16; a bigger file is no user list, and is not read into memory. */
const MAX_BYTES = 50 * 1024 * 1024;
// The long hint beside the icon must not squeeze it on a phone.
const ICON_STYLE = { flexShrink: 0 };

interface FileDropProps {
  onLoaded: (file: LoadedFile) => void;
  /** Offers the template file; null until the lists it takes its example names from are loaded. */
  onTemplate: (() => void) | null;
}

function rejectionProblem(rejections: FileRejection[]): FileProblem {
  const codes = rejections.flatMap((r) => r.errors.map((e) => e.code));
  if (codes.includes("too-many-files")) return { key: "oneFile" };
  if (codes.includes("file-too-large")) return { key: "tooLarge" };
  return { key: "onlyCsv" };
}

/** Step 1 of the import: pick or drop one CSV file; a file that cannot be imported says why. */
export function FileDrop({ onLoaded, onTemplate }: FileDropProps) {
  const { t } = useTranslation();
  const [problem, setProblem] = useState<FileProblem | null>(null);
  const [reading, setReading] = useState(false);

  const read = async (files: File[]) => {
    const [file] = files;
    if (!file) return;
    setReading(true);
    setProblem(null);
    try {
      const result = await readUserCsv(file);
      if ("file" in result) onLoaded(result.file);
      else setProblem(result.problem);
    } catch {
      // The file vanished or is locked (a cloud placeholder, revoked permission), or the detector failed to load.
      setProblem({ key: "unreadable" });
    } finally {
      setReading(false);
    }
  };

  return (
    <Stack>
      <Dropzone
        onDrop={(files) => void read(files)}
        onReject={(rejections) => setProblem(rejectionProblem(rejections))}
        accept={CSV_ACCEPT}
        maxSize={MAX_BYTES}
        multiple={false}
        loading={reading}
        useFsAccessApi={false}
        data-testid="import-dropzone"
      >
        <Group justify="center" gap="lg" mih={160} wrap="nowrap" style={{ pointerEvents: "none" }}>
          <Dropzone.Accept>
            <IconUpload size={48} stroke={1.5} color="var(--mantine-primary-color-filled)" style={ICON_STYLE} />
          </Dropzone.Accept>
          <Dropzone.Reject>
            <IconX size={48} stroke={1.5} color="var(--mantine-color-red-6)" style={ICON_STYLE} />
          </Dropzone.Reject>
          <Dropzone.Idle>
            <IconFileSpreadsheet size={48} stroke={1.5} color="var(--mantine-color-dimmed)" style={ICON_STYLE} />
          </Dropzone.Idle>
          <div>
            <Text size="lg" fw={500}>
              {t("usersImport.drop")}
            </Text>
            <Text size="sm" c="dimmed" mt={6}>
              {t("usersImport.dropHint", { fields: IMPORT_FIELDS.join(", ") })}
            </Text>
          </div>
        </Group>
      </Dropzone>
      {problem && (
        <Alert color="red" icon={<IconAlertCircle size={18} />} data-testid="import-file-problem">
          <Text size="sm">{t(`usersImport.${problem.key}`, problem.values ?? {})}</Text>
          {problem.key === "wrongEncoding" && (
            <Text size="sm" mt={4}>
              {t("usersImport.wrongEncodingHint")}
            </Text>
          )}
        </Alert>
      )}
      <Group>
        <Button
          variant="subtle"
          leftSection={<IconDownload size={16} />}
          onClick={onTemplate ?? undefined}
          disabled={!onTemplate}
        >
          {t("usersImport.template")}
        </Button>
      </Group>
    </Stack>
  );
}

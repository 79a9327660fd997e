import type { ImportResult } from "@carecampus/contract";
import { Paper, Progress, SimpleGrid, Stack, Text } from "@mantine/core";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";

/** Whole seconds since the component mounted; from the clock, as a timer drifts in background tabs. */
function useElapsedSeconds(): number {
  const [seconds, setSeconds] = useState(0);
  useEffect(() => {
    const start = Date.now();
    const timer = window.setInterval(() => setSeconds(Math.floor((Date.now() - start) / 1000)), 1000);
    return () => window.clearInterval(timer);
  }, []);
  return seconds;
}

/**
 * The import is one request without progress events, and hashing thousands of passwords takes
 * a minute: an animated bar and a clock show that it is still working.
 */
export function ImportRunning() {
  const { t } = useTranslation();
  const seconds = useElapsedSeconds();
  return (
    <Paper withBorder p="md" data-testid="import-running">
      <Stack gap="xs">
        <Text fw={600} role="status">
          {t("usersImport.importing", { seconds })}
        </Text>
        <Progress value={100} striped animated size="lg" aria-label={t("usersImport.importing", { seconds })} />
        <Text size="sm" c="dimmed">
          {t("usersImport.importingHint")}
        </Text>
      </Stack>
    </Paper>
  );
}

/** What the import did, count by count. */
export function ImportDone({ result }: { result: ImportResult }) {
  const { t } = useTranslation();
  const counts = [
    ["created", result.created, "teal"],
    ["updated", result.updated, "blue"],
    ["unchanged", result.unchanged, "gray"],
    ["deleted", result.deleted, "red"],
  ] as const;
  return (
    <SimpleGrid cols={{ base: 2, sm: 4 }} data-testid="import-result">
      {counts.map(([key, value, color]) => (
        <Paper key={key} withBorder p="md" data-testid={`import-${key}`}>
          <Text size="sm" c="dimmed">
            {key === "deleted" ? t("former.resultArchived") : t(`usersImport.result.${key}`)}
          </Text>
          <Text fz={28} fw={700} c={value > 0 ? color : "dimmed"}>
            {value}
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

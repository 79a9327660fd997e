import { Button, Stack, Text, Title } from "@mantine/core";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { useRouteError } from "react-router";

/**
 * A chunk of the previous build that the servers no longer have (a rolling deploy while the
 * app was open) fails to load with one of these messages, depending on the browser.
 */
const STALE_CHUNK =
  /dynamically imported module|Importing a module script failed|error loading dynamically imported module|Failed to fetch/i;

export function isStaleChunkError(error: unknown): boolean {
  return error instanceof Error && STALE_CHUNK.test(error.message);
}

/**
 * The router's error screen: after an update it says so and offers a reload; after any other
 * failure it offers the same, instead of a blank page or a stack trace.
 */
export function AppErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <Stack align="center" gap="md" py="xl" px="md" ta="center" maw={560} mx="auto" component="main">
      <Title order={1} ref={heading} tabIndex={-1}>
        {t("errorPage.title")}
      </Title>
      <Text>{isStaleChunkError(error) ? t("errorPage.newVersion") : t("errorPage.text")}</Text>
      <Button size="md" onClick={() => window.location.reload()}>
        {t("errorPage.reload")}
      </Button>
    </Stack>
  );
}

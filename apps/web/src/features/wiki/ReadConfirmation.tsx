import { api, formatDate, type WikiPage } from "@carecampus/contract";
import { Alert, Button, Paper, Stack, Text, Title } from "@mantine/core";
import { IconCircleCheck, IconSignature } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, call, showError } from "../../api/client";
import { settings } from "../../app/settings";
import { wikiLanguageName } from "./languages";
import { refreshWiki } from "./queries";
import classes from "./wiki.module.css";

/**
 * 'I have read and understood this version': the box on a page that asks the caller to confirm
 * its released revision, and the confirmed state (with its date) after it; focus moves there.
 */
export function ReadConfirmation({ page, onConfirmed }: { page: WikiPage; onConfirmed: (page: WikiPage) => void }) {
  const { t, i18n } = useTranslation();
  const zone = settings["time-zone"];
  const queryClient = useQueryClient();
  const [stale, setStale] = useState(false);
  const [justConfirmed, setJustConfirmed] = useState(false);
  const done = useRef<HTMLDivElement>(null);
  const released = page.released;

  useEffect(() => {
    if (justConfirmed && page.confirmation === "confirmed") done.current?.focus();
  }, [justConfirmed, page.confirmation]);

  const confirm = useMutation({
    mutationFn: (revision: number) =>
      call(api.wikiConfirm, { params: { id: page.id }, body: { revision, lang: page.lang }, silent: true }),
    onMutate: () => setStale(false),
    onSuccess: async (next) => {
      setJustConfirmed(true);
      onConfirmed(next);
      await refreshWiki(queryClient);
    },
    onError: async (err) => {
      if (err instanceof ApiError && err.status === 409) {
        // A newer version was released meanwhile: that one is to be read (and confirmed) now.
        setStale(true);
        await refreshWiki(queryClient);
      } else showError(err);
    },
  });

  if (!page.requires_confirmation || page.confirmation === null || !released) return null;

  if (page.confirmation === "confirmed") {
    return (
      <Alert
        ref={done}
        tabIndex={-1}
        className={classes.focusTarget}
        color="teal"
        variant="light"
        icon={<IconCircleCheck />}
        title={t("wiki.confirm.doneTitle")}
        data-testid="wiki-confirmed"
        role={justConfirmed ? "status" : undefined}
      >
        {t("wiki.confirm.done", {
          revision: released.number,
          date: page.confirmed_at ? formatDate(page.confirmed_at, zone) : "",
        })}
      </Alert>
    );
  }

  return (
    <Paper
      withBorder
      p={{ base: "md", sm: "lg" }}
      component="section"
      aria-labelledby="wiki-confirm-title"
      style={{ borderColor: "var(--mantine-color-orange-filled)", borderWidth: 2 }}
      data-testid="wiki-confirm"
      className={classes.noPrint}
    >
      <Stack gap="sm">
        <Title order={2} size="h4" id="wiki-confirm-title">
          {t("wiki.confirm.title")}
        </Title>
        <Text>
          {page.confirmation === "outdated"
            ? t("wiki.confirm.outdated", { revision: released.number })
            : t("wiki.confirm.missing", { revision: released.number })}
        </Text>
        {page.lang !== "de" && (
          <Text size="sm" data-testid="wiki-confirm-binding">
            {t("wiki.confirm.binding", { language: wikiLanguageName(t, page.lang, i18n.language) })}
          </Text>
        )}
        {stale && (
          <Alert color="orange" variant="light" role="alert">
            {t("wiki.confirm.stale")}
          </Alert>
        )}
        <Button
          size="md"
          leftSection={<IconSignature size={20} />}
          onClick={() => confirm.mutate(released.number)}
          loading={confirm.isPending}
          style={{ alignSelf: "flex-start", maxWidth: "100%", height: "auto", minHeight: 42 }}
          styles={{ label: { whiteSpace: "normal", textAlign: "left", paddingBlock: 6 } }}
        >
          {t("wiki.confirm.button")}
        </Button>
      </Stack>
    </Paper>
  );
}

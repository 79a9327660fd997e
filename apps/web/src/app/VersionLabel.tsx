import { api } from "@carecampus/contract";
import { Button, Modal, Stack, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { call } from "../api/client";
import { settings } from "./settings";

/** Short hash at the bottom left; opens a modal with version and date (spec §2). */
export function VersionLabel() {
  const { t, i18n } = useTranslation();
  const [opened, { open, close }] = useDisclosure(false);
  const { data } = useQuery({
    queryKey: ["version"],
    queryFn: () => call(api.version, { silent: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  // The content package's version, where the installation shows it (show-content-version).
  const content = useQuery({
    queryKey: ["content-version"],
    queryFn: () => call(api.contentVersion, { silent: true }),
    enabled: opened && settings["show-content-version"],
  });
  if (!data) return null;
  const date = data.date ? new Date(data.date) : null;
  return (
    <>
      <Button
        variant="subtle"
        size="compact-xs"
        color="gray"
        onClick={open}
        aria-label={`${data.short_hash} – ${t("version.open")}`}
      >
        {data.short_hash}
      </Button>
      <Modal opened={opened} onClose={close} title={t("version.title")} centered>
        <Stack gap="xs">
          <Text>
            {t("version.version")}: <b>{data.version}</b>
          </Text>
          <Text>
            {t("version.commit")}: <b>{data.short_hash}</b>
          </Text>
          {settings["show-content-version"] && (
            <Text data-testid="content-version">
              {t("version.content")}: <b>{content.data ? (content.data.version ?? t("version.noContent")) : "…"}</b>
            </Text>
          )}
          {date && !Number.isNaN(date.getTime()) && (
            <Text>
              {t("version.date")}: <b>{date.toLocaleString(i18n.language === "br" ? "pt-BR" : i18n.language)}</b>
            </Text>
          )}
        </Stack>
      </Modal>
    </>
  );
}

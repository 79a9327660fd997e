import { api, formatDate, type WikiPage } from "@carecampus/contract";
import { Alert, Anchor, Button, Group, Paper, Progress, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import { IconBellRinging, IconDownload } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { authedUrl, call, freshLink, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { wikiLanguageName } from "./languages";
import { ConfirmationBadge } from "./PageBadges";
import { useWikiConfirmations } from "./queries";
import classes from "./wiki.module.css";

/** Staff: who in the facility confirmed the released version, who only an earlier one, who none. */
export function ConfirmationsPanel({ page, facility }: { page: WikiPage; facility: number | null }) {
  const { t, i18n } = useTranslation();
  const zone = settings["time-zone"];
  const list = useWikiConfirmations(page.id, facility, true);
  const data = list.data;
  const missing = data ? data.rows.filter((r) => r.state !== "confirmed").length : 0;
  const exportLink = freshLink(() =>
    authedUrl(api.wikiConfirmationsExport, {
      params: { id: page.id },
      query: { facility: facility ?? undefined },
    }),
  );

  const remind = useMutation({
    mutationFn: () =>
      call(api.wikiConfirmationsRemind, { params: { id: page.id }, query: { facility: facility ?? undefined } }),
    // A failure: the client's toast says what went wrong.
    onSuccess: (result) => showSuccess(t("wiki.confirmations.reminded", { count: result.reminded })),
  });

  return (
    <Paper
      withBorder
      p={{ base: "sm", sm: "lg" }}
      component="section"
      aria-labelledby="wiki-confirmations-title"
      data-testid="wiki-confirmations"
      className={classes.noPrint}
    >
      <Title order={2} size="h4" id="wiki-confirmations-title" mb="xs">
        {t("wiki.confirmations.title")}
      </Title>
      {list.isPending ? (
        <Skeleton h={120} />
      ) : !data ? (
        <Alert color="gray" variant="light">
          {t("wiki.loadFailed")}
        </Alert>
      ) : (
        <Stack gap="sm">
          <Text data-testid="wiki-confirmations-count">
            {t("wiki.confirmations.count", {
              confirmed: data.confirmed,
              total: data.total,
              facility: data.facility.name,
              revision: data.revision ?? "–",
            })}
          </Text>
          <Progress
            value={data.total > 0 ? (100 * data.confirmed) / data.total : 0}
            color="teal.9"
            size="md"
            aria-label={t("wiki.confirmations.progress")}
          />
          <Group gap="sm">
            <Button
              variant="default"
              leftSection={<IconBellRinging size={18} />}
              onClick={() => remind.mutate()}
              loading={remind.isPending}
              disabled={missing === 0 || data.revision === null}
            >
              {t("wiki.confirmations.remind", { count: missing })}
            </Button>
            <Anchor {...exportLink} download display="inline-flex" style={{ alignItems: "center", gap: 4 }}>
              <IconDownload size={18} aria-hidden /> {t("wiki.confirmations.export")}
            </Anchor>
          </Group>
          {data.rows.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t("wiki.confirmations.nobody")}
            </Text>
          ) : (
            <Table.ScrollContainer
              minWidth={320}
              type="native"
              tabIndex={0}
              role="region"
              aria-labelledby="wiki-confirmations-title"
            >
              <Table striped verticalSpacing={6} data-testid="wiki-confirmation-rows">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t("wiki.confirmations.person")}</Table.Th>
                    <Table.Th>{t("wiki.confirmations.state")}</Table.Th>
                    <Table.Th>{t("wiki.confirmations.when")}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.rows.map((r) => (
                    <Table.Tr key={r.user_id} data-testid="wiki-confirmation-row" data-state={r.state}>
                      <Table.Td>
                        {r.name} {r.surname}
                        <Text size="xs" c="dimmed" component="span" display="block">
                          {r.login}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <ConfirmationBadge state={r.state} />
                      </Table.Td>
                      <Table.Td>
                        {r.confirmed_at
                          ? t("wiki.confirmations.at", {
                              date: formatDate(r.confirmed_at, zone),
                              revision: r.revision ?? "",
                            })
                          : "–"}
                        {r.lang && r.lang !== "de" && (
                          <Text span size="sm" c="dimmed" display="block">
                            {t("wiki.confirmations.readIn", { language: wikiLanguageName(t, r.lang, i18n.language) })}
                          </Text>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}
    </Paper>
  );
}

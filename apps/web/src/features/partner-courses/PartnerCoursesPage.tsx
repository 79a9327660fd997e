import { api, formatDate, TRUNCATE_EXTERNAL_COURSE, truncate } from "@carecampus/contract";
import { Alert, Group, Paper, Select, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconCheck, IconWorldOff } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { call } from "../../api/client";
import { settings } from "../../app/settings";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { useCatalogue } from "../../queries/admin";

/**
 * Staff: which of their users did which partner course of a training (GET
 * /external-course/admin/courses), within their facility scope. Not there without
 * show-external-trainings.
 */
export default function PartnerCoursesPage() {
  const { t } = useTranslation();
  const catalogue = useCatalogue();
  const [choice, setChoice] = useState<string | null>(null);
  const [topicId, trainingId] = (choice ?? "0:0").split(":").map(Number) as [number, number];
  const result = useQuery({
    queryKey: ["partner-courses", "admin", topicId, trainingId],
    queryFn: () => call(api.partnerAdminCourses, { query: { topicId, trainingId }, silent: true }),
    enabled: choice !== null,
    retry: false,
  });
  if (!settings["show-external-trainings"]) return <NotFoundPage />;
  const data = (catalogue.data ?? []).map((topic) => ({
    group: topic.name,
    items: topic.trainings.filter((tr) => !tr.passive).map((tr) => ({ value: `${topic.id}:${tr.id}`, label: tr.name })),
  }));
  const names = new Map((result.data?.courses ?? []).map((c) => [c.external_id, c.name]));
  const zone = settings["time-zone"];
  return (
    <>
      <PageHeader title={t("partnerCourses.adminTitle")} />
      <Select
        label={t("partnerCourses.adminPick")}
        data={data}
        value={choice}
        onChange={setChoice}
        searchable
        maw={480}
        mb="lg"
        data-testid="partner-admin-training"
      />
      {choice === null ? null : result.isError ? (
        <Alert icon={<IconWorldOff />} color="orange" variant="light" role="status">
          {t("partnerCourses.unavailable")}
        </Alert>
      ) : !result.data ? (
        <Skeleton h={120} />
      ) : (
        <Stack gap="sm" component="section" aria-live="polite" data-testid="partner-admin-result">
          {result.data.courses.length === 0 ? (
            <Text c="dimmed">{t("partnerCourses.none")}</Text>
          ) : result.data.users.length === 0 ? (
            <Text c="dimmed">{t("partnerCourses.adminNone")}</Text>
          ) : (
            result.data.users.map((u) => (
              <Paper key={u.id} withBorder p="md" data-testid="partner-admin-user">
                <Title order={2} size="h4">
                  {u.surname}, {u.name}
                </Title>
                {u.facility && (
                  <Text size="sm" c="dimmed">
                    {u.facility}
                  </Text>
                )}
                <Stack gap={4} mt="xs" component="ul" style={{ listStyle: "none", padding: 0, margin: 0 }}>
                  {u.courses.map((c) => {
                    const name = names.get(c.external_id) ?? c.external_id;
                    return (
                      <Group key={c.external_id} component="li" gap="xs" wrap="nowrap" align="flex-start">
                        {c.completed_at && <IconCheck size={18} aria-hidden style={{ flexShrink: 0 }} />}
                        <Text size="sm" title={name} style={{ overflowWrap: "anywhere" }}>
                          <Text span fw={600}>
                            {truncate(name, TRUNCATE_EXTERNAL_COURSE)}
                          </Text>
                          {": "}
                          {t("partnerCourses.progress", { count: c.count, total: c.total })}
                          {c.completed_at &&
                            ` · ${t("partnerCourses.adminDone", { date: formatDate(c.completed_at, zone) })}`}
                        </Text>
                      </Group>
                    );
                  })}
                </Stack>
              </Paper>
            ))
          )}
        </Stack>
      )}
    </>
  );
}

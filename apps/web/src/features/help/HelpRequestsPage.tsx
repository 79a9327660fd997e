import { can, formatDate } from "@carecampus/contract";
import { Accordion, Alert, Badge, Button, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconArrowRight, IconMoodHappy, IconTool } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { settings } from "../../app/settings";
import { ContentIcon } from "../../components/ContentIcon";
import { FacilityScopeSelect, useFacilityParam } from "../../components/FacilityScope";
import { HelpBadge } from "../../components/HelpBadge";
import { PageHeader } from "../../components/PageHeader";
import { useRequiredSession } from "../../session/store";
import { useContentFixes, useHelpRequests } from "./queries";

function ContentFixes() {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const fixes = useContentFixes(true);
  if (!fixes.data || fixes.data.length === 0) return null;
  return (
    <Stack gap="xs" mt="xl" data-testid="content-fixes">
      <Title order={2} size="h4">
        {t("helpRequests.fixes.title")}
      </Title>
      {fixes.data.map((f) => (
        <Alert key={f.question_id} color="orange" variant="light" icon={<IconTool size={20} />}>
          <Text size="sm" c="dimmed">
            {f.topic} › {f.training} › {t("helpRequests.questionnaire", { name: f.questionnaire })}
          </Text>
          <Text fw={600}>{f.question_text}</Text>
          {f.note && <Text size="sm">{f.note}</Text>}
          <Text size="sm" c="dimmed">
            {t("helpRequests.fixes.by", { name: f.by, date: formatDate(f.at, zone) })}
          </Text>
          <Button
            component={Link}
            to={`/helprequests/${f.question_id}`}
            variant="subtle"
            size="compact-sm"
            mt={4}
            px={0}
          >
            {t("helpRequests.open")}
          </Button>
        </Alert>
      ))}
    </Stack>
  );
}

/** /helprequests: the questions learners asked about, the most asked first (spec §2 'Other views'). */
export default function HelpRequestsPage() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const zone = settings["time-zone"];
  const [facility] = useFacilityParam();
  const list = useHelpRequests(facility);
  const suffix = facility ? `?facility=${facility}` : "";

  return (
    <>
      <PageHeader title={t("helpRequests.title")} />
      <FacilityScopeSelect label={t("helpRequests.facility")} none={t("helpRequests.allFacilities")} />
      {list.isPending ? (
        <Stack>
          <Skeleton h={64} />
          <Skeleton h={64} />
        </Stack>
      ) : list.data && list.data.length > 0 ? (
        <>
          <Text size="sm" c="dimmed" mb="xs" aria-live="polite">
            {t("helpRequests.count", { count: list.data.length })}
          </Text>
          <Accordion variant="separated" chevronPosition="right" data-testid="help-list">
            {list.data.map((r) => (
              <Accordion.Item key={r.question_id} value={String(r.question_id)} data-testid="help-item">
                <Accordion.Control>
                  <Group gap="sm" wrap="nowrap" align="flex-start">
                    <HelpBadge count={r.count} color={r.color} />
                    <div style={{ minWidth: 0 }}>
                      <Text fw={600} lineClamp={2}>
                        {r.question_text}
                      </Text>
                      <Text size="sm" c="dimmed" lineClamp={1}>
                        {r.training}
                      </Text>
                    </div>
                  </Group>
                </Accordion.Control>
                <Accordion.Panel>
                  <Stack gap="xs">
                    <Group gap="xs" wrap="nowrap">
                      <ContentIcon name={r.icon} size={28} />
                      <Text size="sm">
                        {r.topic} › {r.training}
                      </Text>
                    </Group>
                    <Text size="sm">
                      {t("helpRequests.askedBy", { count: r.count })} ·{" "}
                      {t("helpRequests.lastAsked", { date: formatDate(r.last_asked_at, zone) })}
                    </Text>
                    {r.needs_fix && (
                      <Badge color="orange" variant="light" leftSection={<IconTool size={12} />}>
                        {t("helpRequests.fixes.marked")}
                      </Badge>
                    )}
                    <Group>
                      <Button
                        component={Link}
                        to={`/helprequests/${r.question_id}${suffix}`}
                        rightSection={<IconArrowRight size={16} />}
                      >
                        {t("helpRequests.open")}
                      </Button>
                    </Group>
                  </Stack>
                </Accordion.Panel>
              </Accordion.Item>
            ))}
          </Accordion>
        </>
      ) : (
        <Alert color="teal" variant="light" icon={<IconMoodHappy />} data-testid="help-empty">
          {t("helpRequests.none")}
        </Alert>
      )}
      {can(user.roles, "help.flagContent") && <ContentFixes />}
    </>
  );
}

import {
  api,
  formatDate,
  type StaffHome as StaffHomeData,
  type StaffHomeTraining,
  seesAllFacilities,
} from "@carecampus/contract";
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Progress,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import {
  IconAlertTriangle,
  IconCalendarCheck,
  IconCalendarPlus,
  IconChecklist,
  IconClockHour4,
  IconHelpCircle,
} from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate } from "react-router";
import { call } from "../../api/client";
import { EARLY, early } from "../../api/early";
import { settings } from "../../app/settings";
import { expiryBadgeProps } from "../../components/ExpiryBadge";
import { HelpBadge } from "../../components/HelpBadge";
import type { CalendarRequest } from "../../queries/calendar";
import { useRequiredSession } from "../../session/store";

const staffHomeKey = ["home", "staff"] as const;

const list = { listStyle: "none", margin: 0, padding: 0 } as const;

/** One card: a titled section with its rows, 'n more' and a link to the screen that resolves them. */
function StaffCard({
  id,
  icon,
  title,
  count,
  total,
  shown,
  empty,
  more,
  children,
}: {
  id: string;
  icon: ReactNode;
  title: string;
  /** The number beside the title and what it counts, in words for screen readers. */
  count: { value: number; label: string };
  /** Rows in all; `shown` of them are listed. */
  total: number;
  shown: number;
  empty: string;
  more: { to: string; label: string };
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="md" component="section" aria-labelledby={`${id}-title`} data-testid={id}>
      <Group gap="xs" wrap="nowrap" mb="sm" align="center">
        {icon}
        <Title order={2} size="h4" id={`${id}-title`}>
          {title}
        </Title>
        {count.value > 0 && (
          <Badge
            variant="light"
            color="gray"
            style={{ flexShrink: 0 }}
            aria-label={count.label}
            data-testid={`${id}-count`}
          >
            {count.value}
          </Badge>
        )}
      </Group>
      {total === 0 ? (
        <Text c="dimmed" size="sm">
          {empty}
        </Text>
      ) : (
        <Stack gap="sm" component="ul" style={list}>
          {children}
        </Stack>
      )}
      <Group justify="space-between" mt="md" gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          {total > shown ? t("home.staff.more", { count: total - shown }) : ""}
        </Text>
        <Anchor component={Link} to={more.to} size="sm" fw={600}>
          {more.label}
        </Anchor>
      </Group>
    </Card>
  );
}

/** The overview of one topic (and, for those who see every facility, one facility). */
function overviewPath(row: StaffHomeTraining, allFacilities: boolean): string {
  const query = new URLSearchParams({ topic: String(row.topic.id) });
  if (allFacilities) query.set("facility", row.facility.name);
  return `/progress?${query}`;
}

/**
 * One training of one facility: its name (leading to the overview of its topic), where it stands,
 * how many people are in each of `colours`, and `children` (an action) below.
 */
function TrainingRow({
  row,
  colours,
  allFacilities,
  testId,
  children,
}: {
  row: StaffHomeTraining;
  colours: readonly ("red" | "orange" | "yellow")[];
  allFacilities: boolean;
  testId: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <li data-testid={testId}>
      <Group justify="space-between" wrap="wrap" gap="xs" align="flex-start">
        <div style={{ minWidth: 0 }}>
          <Anchor component={Link} to={overviewPath(row, allFacilities)} fw={600} style={{ overflowWrap: "anywhere" }}>
            {row.training.name}
          </Anchor>
          <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
            {allFacilities ? `${row.facility.name} · ${row.topic.name}` : row.topic.name}
          </Text>
        </div>
        <Group gap={6} wrap="wrap">
          {colours
            .filter((colour) => row[colour] > 0)
            .map((colour) => (
              <Badge key={colour} {...expiryBadgeProps(colour)} style={{ textTransform: "none" }} data-colour={colour}>
                {t(`home.staff.${colour}`, { count: row[colour] })}
              </Badge>
            ))}
        </Group>
      </Group>
      {children}
    </li>
  );
}

/**
 * The start page of administrators, supervisors, Super-Admins and superusers (issue 30): who is
 * red or orange now with "plan a date for these N", expiring soon, open help requests, events
 * waiting for their attendance and incomplete QM confirmations — one call, each card leading to
 * the screen that resolves it.
 */
export function StaffHome() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useRequiredSession();
  const allFacilities = seesAllFacilities(user.roles);
  const zone = settings["time-zone"];
  // Fresh on every visit: an event just planned or attendance just recorded shows at once.
  const home = useQuery({
    queryKey: staffHomeKey,
    queryFn: () => early(EARLY.staffHome, () => call(api.staffHome, { silent: true })),
    staleTime: 0,
  });
  const data: StaffHomeData | undefined = home.data;

  if (home.isPending) return <Skeleton h={320} mb="lg" />;
  if (!data) {
    return (
      <Alert color="red" variant="light" role="alert" mb="lg">
        {t("home.staff.failed")}
      </Alert>
    );
  }

  const openCalendar = (request: CalendarRequest) => navigate("/calendar", { state: request });

  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md" mb="xl" data-testid="staff-home">
      <StaffCard
        id="staff-due"
        count={{ value: data.due.total, label: t("home.staff.trainings", { count: data.due.total }) }}
        icon={<IconAlertTriangle size={22} aria-hidden />}
        title={t("home.staff.due.title")}
        total={data.due.total}
        shown={data.due.rows.length}
        empty={t("home.staff.due.none")}
        more={{ to: "/progress", label: t("home.staff.toOverview") }}
      >
        {data.due.rows.map((row) => (
          <TrainingRow
            key={`${row.facility.id}-${row.training.id}`}
            row={row}
            colours={["red", "orange"]}
            allFacilities={allFacilities}
            testId="staff-due-row"
          >
            <Button
              mt={6}
              variant="light"
              size="sm"
              h="auto"
              py={6}
              leftSection={<IconCalendarPlus size={16} />}
              styles={{ label: { whiteSpace: "normal" } }}
              onClick={() =>
                openCalendar({ plan: { facility: row.facility.id, topic: row.topic.id, training: row.training.id } })
              }
              data-testid="plan-date"
            >
              {t("home.staff.plan", { count: row.red + row.orange })}
            </Button>
          </TrainingRow>
        ))}
      </StaffCard>

      <StaffCard
        id="staff-help"
        count={{ value: data.help.requests, label: t("home.staff.help.requests", { count: data.help.requests }) }}
        icon={<IconHelpCircle size={22} aria-hidden />}
        title={t("home.staff.help.title")}
        total={data.help.total}
        shown={data.help.rows.length}
        empty={t("home.staff.help.none")}
        more={{ to: "/helprequests", label: t("home.staff.help.all") }}
      >
        {data.help.rows.map((h) => (
          <Group
            component="li"
            key={h.question_id}
            justify="space-between"
            wrap="nowrap"
            gap="sm"
            data-testid="staff-help-row"
          >
            <div style={{ minWidth: 0 }}>
              <Anchor
                component={Link}
                to={`/helprequests/${h.question_id}`}
                fw={600}
                lineClamp={2}
                title={h.question_text}
              >
                {h.question_text}
              </Anchor>
              <Text size="sm" c="dimmed" style={{ overflowWrap: "anywhere" }}>
                {h.training}
              </Text>
            </div>
            <HelpBadge count={h.count} color={h.color} />
          </Group>
        ))}
      </StaffCard>

      <StaffCard
        id="staff-attendance"
        count={{
          value: data.attendance.total,
          label: t("home.staff.attendance.events", { count: data.attendance.total }),
        }}
        icon={<IconCalendarCheck size={22} aria-hidden />}
        title={t("home.staff.attendance.title")}
        total={data.attendance.total}
        shown={data.attendance.rows.length}
        empty={t("home.staff.attendance.none")}
        more={{ to: "/calendar", label: t("home.staff.attendance.all") }}
      >
        {data.attendance.rows.map((e) => (
          <Group
            component="li"
            key={e.id}
            justify="space-between"
            wrap="wrap"
            gap="xs"
            data-testid="staff-attendance-row"
          >
            <div style={{ minWidth: 0 }}>
              <Text fw={600} style={{ overflowWrap: "anywhere" }}>
                {e.label}
              </Text>
              <Text size="sm" c="dimmed">
                {[
                  formatDate(e.starts_at, zone),
                  allFacilities ? e.facility.name : null,
                  t("home.staff.attendance.invitees", { count: e.invitees }),
                ]
                  .filter(Boolean)
                  .join(" · ")}
              </Text>
            </div>
            <Button variant="light" size="sm" onClick={() => openCalendar({ event: e.id })}>
              {t("home.staff.attendance.record")}
            </Button>
          </Group>
        ))}
      </StaffCard>

      <StaffCard
        id="staff-confirmations"
        count={{
          value: data.confirmations.total,
          label: t("home.staff.confirmations.pages", { count: data.confirmations.total }),
        }}
        icon={<IconChecklist size={22} aria-hidden />}
        title={t("home.staff.confirmations.title")}
        total={data.confirmations.total}
        shown={data.confirmations.rows.length}
        empty={t("home.staff.confirmations.none")}
        more={{ to: "/wiki", label: t("home.staff.confirmations.all") }}
      >
        {data.confirmations.rows.map((p) => {
          const query = allFacilities ? `?facility=${p.facility.id}` : "";
          const label = t("home.staff.confirmations.count", { confirmed: p.confirmed, total: p.total });
          return (
            <li key={`${p.page_id}-${p.facility.id}`} data-testid="staff-confirmation-row">
              <Anchor
                component={Link}
                to={`/wiki/${p.topic_key}/${encodeURIComponent(p.slug)}${query}`}
                fw={600}
                style={{ overflowWrap: "anywhere" }}
              >
                {p.title}
              </Anchor>
              <Group gap="sm" wrap="nowrap" align="center">
                <Progress value={(100 * p.confirmed) / p.total} flex={1} aria-label={label} color="teal.8" />
                <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                  {allFacilities ? `${label} · ${p.facility.name}` : label}
                </Text>
              </Group>
            </li>
          );
        })}
      </StaffCard>

      <StaffCard
        id="staff-expiring"
        count={{ value: data.expiring.total, label: t("home.staff.trainings", { count: data.expiring.total }) }}
        icon={<IconClockHour4 size={22} aria-hidden />}
        title={t("home.staff.expiring.title")}
        total={data.expiring.total}
        shown={data.expiring.rows.length}
        empty={t("home.staff.expiring.none")}
        more={{ to: "/progress", label: t("home.staff.toOverview") }}
      >
        {data.expiring.rows.map((row) => (
          <TrainingRow
            key={`${row.facility.id}-${row.training.id}`}
            row={row}
            colours={["yellow"]}
            allFacilities={allFacilities}
            testId="staff-expiring-row"
          />
        ))}
      </StaffCard>
    </SimpleGrid>
  );
}

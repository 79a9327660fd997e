import { api, type ExternalCourse, formatDate, TRUNCATE_EXTERNAL_COURSE, truncate } from "@carecampus/contract";
import {
  Alert,
  Anchor,
  Button,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  VisuallyHidden,
} from "@mantine/core";
import { IconCertificate, IconCheck, IconExternalLink, IconSchool, IconWorldOff } from "@tabler/icons-react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import { authedUrl, call, freshLink } from "../../api/client";
import { settings } from "../../app/settings";
import { invalidateLearning } from "../../queries/learning";

/** Spec §9: the external token is renewed this long before its valid_until. */
const RENEW_BEFORE_MS = 20_000;

/** The launch token, renewed 20 s before it expires while the page is open (spec §9). */
function usePartnerToken() {
  return useQuery({
    queryKey: ["partner-courses", "token"],
    queryFn: () => call(api.partnerToken, { silent: true }),
    staleTime: 0,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => {
      const until = query.state.data ? new Date(query.state.data.valid_until).getTime() : Number.NaN;
      return Number.isFinite(until) ? Math.max(1000, until - Date.now() - RENEW_BEFORE_MS) : false;
    },
  });
}

function CourseRow({ course, token }: { course: ExternalCourse; token: string }) {
  const { t } = useTranslation();
  const short = truncate(course.name, TRUNCATE_EXTERNAL_COURSE);
  const done = course.total > 0 && course.count >= course.total;
  const launch = new URL(course.url);
  launch.searchParams.set("token", token);
  launch.searchParams.set("return_url", window.location.href);
  return (
    <Paper withBorder p="md" data-testid="partner-course" data-course={course.external_id}>
      <Stack gap="xs">
        <Group wrap="nowrap" align="flex-start" gap="sm">
          {course.icon_url ? (
            <img src={course.icon_url} alt="" width={40} height={40} style={{ flexShrink: 0, borderRadius: 8 }} />
          ) : (
            <ThemeIcon variant="light" size={40} radius="md" aria-hidden>
              <IconSchool size={24} />
            </ThemeIcon>
          )}
          <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
            {/* Spec §5: the name cut at 40 (37 + '...'); the whole name on hover and focus, and for screen readers. */}
            <Tooltip
              label={<span data-testid="partner-course-fullname">{course.name}</span>}
              multiline
              maw={320}
              disabled={short === course.name}
              events={{ hover: true, focus: true, touch: true }}
            >
              <Text
                fw={600}
                tabIndex={short === course.name ? undefined : 0}
                data-testid="partner-course-name"
                style={{ overflowWrap: "anywhere" }}
              >
                <span aria-hidden data-testid="partner-course-short">
                  {short}
                </span>
                <VisuallyHidden>{course.name}</VisuallyHidden>
              </Text>
            </Tooltip>
            <Text size="sm" c="dimmed" data-testid="partner-course-progress">
              {course.total > 0
                ? t("partnerCourses.progress", { count: course.count, total: course.total })
                : t("partnerCourses.notStarted")}
            </Text>
            {course.counts_for_training && (
              <Group gap={4} wrap="nowrap" align="flex-start">
                <IconCertificate size={16} aria-hidden style={{ flexShrink: 0, marginTop: 2 }} />
                <Text size="sm" fw={600}>
                  {t("partnerCourses.countsForTraining")}
                </Text>
              </Group>
            )}
          </Stack>
          {done && (
            <ThemeIcon color="teal" radius="xl" size="lg" role="img" aria-label={t("partnerCourses.completed")}>
              <IconCheck size={20} />
            </ThemeIcon>
          )}
        </Group>
        <Group gap="sm" justify="space-between">
          {course.certificate ? (
            <Anchor
              size="sm"
              data-testid="partner-certificate"
              {...freshLink(() =>
                authedUrl(api.certificatePdf, { query: { id: course.certificate?.id ?? 0, source: "partner" } }),
              )}
              target="_blank"
              rel="noopener"
            >
              <Group gap={4} component="span" wrap="nowrap">
                <IconCertificate size={16} aria-hidden />
                {t("partnerCourses.certificate", {
                  date: formatDate(course.certificate.acquired_at, settings["time-zone"]),
                })}
              </Group>
            </Anchor>
          ) : (
            <span />
          )}
          <Button
            component="a"
            href={launch.toString()}
            variant={done ? "light" : "filled"}
            rightSection={<IconExternalLink size={16} aria-hidden />}
            aria-label={`${done ? t("partnerCourses.openAgain") : course.count > 0 ? t("partnerCourses.continue") : t("partnerCourses.open")}: ${course.name}`}
          >
            {done
              ? t("partnerCourses.openAgain")
              : course.count > 0
                ? t("partnerCourses.continue")
                : t("partnerCourses.open")}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

/**
 * The training page's external trainings section (spec §2): the partner's courses with the
 * learner's progress and certificate. Without show-external-trainings it is not there at all;
 * a token that cannot be had stops the load (spec §8), a partner that is down is said so.
 */
export function PartnerCourses({
  topicId,
  trainingId,
  certificateId,
}: {
  topicId: number;
  trainingId: number;
  /** The training's certificate shown now: a newer one earned through a partner course reloads the page's data. */
  certificateId: number | null;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const token = usePartnerToken();
  const courses = useQuery({
    queryKey: ["partner-courses", "course", topicId, trainingId],
    queryFn: () => call(api.partnerCourses, { query: { topicId, trainingId }, silent: true }),
    enabled: token.isSuccess,
    staleTime: 0,
    retry: false,
  });
  const newest = Math.max(0, ...(courses.data ?? []).map((c) => c.certificate?.certificate_id ?? 0));
  useEffect(() => {
    if (newest > (certificateId ?? 0)) void invalidateLearning(queryClient);
  }, [newest, certificateId, queryClient]);

  const failed = token.isError || courses.isError;
  return (
    <Stack gap="sm" mt="xl" component="section" aria-labelledby="partner-courses-title" data-testid="partner-courses">
      <Title order={2} size="h3" id="partner-courses-title">
        {t("partnerCourses.title")}
      </Title>
      {failed ? (
        <Alert
          icon={<IconWorldOff />}
          color="orange"
          variant="light"
          role="status"
          data-testid="partner-courses-unavailable"
        >
          {t("partnerCourses.unavailable")}
        </Alert>
      ) : !courses.data || !token.data ? (
        <Skeleton h={96} />
      ) : courses.data.length === 0 ? (
        <Text c="dimmed" data-testid="partner-courses-none">
          {t("partnerCourses.none")}
        </Text>
      ) : (
        courses.data.map((c) => <CourseRow key={c.external_id} course={c} token={token.data.token} />)
      )}
    </Stack>
  );
}

import { api, can, formatDate, HELP_REPLY_MAX, type HelpRequestDetail } from "@carecampus/contract";
import {
  Alert,
  Anchor,
  Box,
  Button,
  Flex,
  Group,
  Image,
  List,
  Paper,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconArrowLeft, IconCheck, IconInfoCircle, IconPencil, IconX } from "@tabler/icons-react";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useNavigate, useParams } from "react-router";
import { authedUrl, call, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { ContentIcon } from "../../components/ContentIcon";
import { useFacilityParam } from "../../components/FacilityScope";
import { HelpBadge } from "../../components/HelpBadge";
import { PageHeader } from "../../components/PageHeader";
import { SafeHtml } from "../../components/SafeHtml";
import { useRequiredSession } from "../../session/store";
import classes from "./help.module.css";
import { helpKeys, useHelpRequest } from "./queries";

/** The question as the learner saw it, with the right answers marked (spec §3 Help request). */
function QuestionCard({ help }: { help: HelpRequestDetail }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p={{ base: "md", sm: "lg" }}>
      <Group gap="sm" wrap="nowrap" mb="sm" align="flex-start">
        <ContentIcon name={help.icon} size={40} />
        <div style={{ minWidth: 0 }}>
          <Text size="sm" c="dimmed">
            {help.topic.name} › {help.training.name} ›{" "}
            {t("helpRequests.questionnaire", { name: help.questionnaire.name })}
          </Text>
          <Title order={2} size="h4" mt={4}>
            {help.question_text}
          </Title>
        </div>
      </Group>
      <Text size="sm" c="dimmed" mb="xs">
        {help.type === "multiple" ? t("helpRequests.typeMultiple") : t("helpRequests.typeSingle")}
      </Text>
      <Stack gap="xs" mb="md" data-testid="help-answers">
        {help.answers.map((a) => (
          <Box key={a.id} className={classes.answer} data-right={a.value || undefined}>
            <Group gap="xs" wrap="nowrap" align="flex-start">
              {a.value ? (
                <IconCheck size={20} className={classes.mark} color="var(--mantine-color-teal-filled)" aria-hidden />
              ) : (
                <IconX size={20} className={classes.mark} opacity={0.5} aria-hidden />
              )}
              <Text>
                {a.text}
                <span className={classes.verdict}>
                  {" "}
                  ({a.value ? t("helpRequests.right") : t("helpRequests.wrong")})
                </span>
              </Text>
            </Group>
          </Box>
        ))}
      </Stack>
      {help.media?.type === "image" && (
        <Image
          src={authedUrl(api.staticImage, { params: { id: help.media.id } })}
          maw={480}
          radius="md"
          mb="md"
          alt=""
        />
      )}
      {help.hint && (
        <Alert color="blue" variant="light" title={t("quiz.hint")} mb="md">
          {help.hint}
        </Alert>
      )}
      <Title order={3} size="h5" mb={4}>
        {t("quiz.explanation")}
      </Title>
      <SafeHtml html={help.explanation} />
      {help.editable && (
        <Button
          component={Link}
          to={`/authoring/questionnaire/${help.questionnaire.id}?question=${help.question_id}`}
          variant="default"
          leftSection={<IconPencil size={16} aria-hidden />}
          mt="md"
        >
          {t("helpRequests.fixQuestion")}
        </Button>
      )}
    </Paper>
  );
}

function ReplyForm({ help, facility }: { help: HelpRequestDetail; facility: number | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const form = useForm({ mode: "controlled", initialValues: { text: "" } });
  const scope = { params: { id: help.question_id }, query: { facility: facility ?? undefined } };
  const back = facility ? `/helprequests?facility=${facility}` : "/helprequests";

  /** Answers every learner who asked (reply) or only marks the request handled. */
  const finish = useMutation({
    mutationFn: async (action: "reply" | "handle") => {
      if (action === "reply") await call(api.helpReply, { ...scope, body: { text: form.getValues().text.trim() } });
      else await call(api.helpHandle, scope);
    },
    // A failure: the client's toast says what went wrong.
    onSuccess: async () => {
      showSuccess(t("success.helpRequestRemoved"));
      await queryClient.invalidateQueries({ queryKey: helpKeys.all });
      navigate(back);
    },
  });
  const busy = finish.isPending ? finish.variables : null;

  return (
    <Paper withBorder p={{ base: "md", sm: "lg" }}>
      <Title order={2} size="h4" mb="xs">
        {t("helpRequests.reply.title")}
      </Title>
      <Textarea
        label={t("helpRequests.reply.label")}
        description={t("helpRequests.reply.description", { count: help.count })}
        {...form.getInputProps("text")}
        maxLength={HELP_REPLY_MAX}
        autosize
        minRows={3}
        maxRows={10}
        mb="md"
      />
      {/* On a phone the primary action comes first, full width, under the thumb. */}
      <Flex gap="sm" justify="flex-end" direction={{ base: "column-reverse", xs: "row" }}>
        <Button variant="default" onClick={() => finish.mutate("handle")} loading={busy === "handle"} disabled={!!busy}>
          {t("helpRequests.reply.handleOnly")}
        </Button>
        <Button
          onClick={() => finish.mutate("reply")}
          loading={busy === "reply"}
          disabled={!!busy || form.getValues().text.trim() === ""}
        >
          {t("helpRequests.reply.send")}
        </Button>
      </Flex>
    </Paper>
  );
}

function ContentFixSwitch({ help }: { help: HelpRequestDetail }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const toggle = useMutation({
    mutationFn: (needsFix: boolean) =>
      call(api.contentFixSet, { params: { id: help.question_id }, body: { needs_fix: needsFix } }),
    // A failure: the client shows the error toast.
    onSuccess: async (_, needsFix) => {
      showSuccess(needsFix ? t("helpRequests.fixes.markedToast") : t("helpRequests.fixes.clearedToast"));
      await queryClient.invalidateQueries({ queryKey: helpKeys.all });
    },
  });
  return (
    <Switch
      checked={help.needs_fix}
      disabled={toggle.isPending}
      onChange={(e) => toggle.mutate(e.currentTarget.checked)}
      label={t("helpRequests.fixes.switch")}
      description={t("helpRequests.fixes.switchHelp")}
      data-testid="content-fix"
    />
  );
}

/** /helprequests/{id} (ARCHITECTURE decision 10): one question, who asked, the replies, and the answer box. */
export default function HelpRequestPage() {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const { user } = useRequiredSession();
  const id = Number(useParams().id);
  const [facility] = useFacilityParam();
  const help = useHelpRequest(id, facility);
  const heading = useRef<HTMLDivElement>(null);
  const back = facility ? `/helprequests?facility=${facility}` : "/helprequests";

  // A new screen: the keyboard and screen reader start at its content, not at the page's top.
  useEffect(() => {
    if (help.data) heading.current?.focus();
  }, [help.data]);

  return (
    <>
      <PageHeader title={t("helpRequests.detailTitle")} />
      <Anchor
        component={Link}
        to={back}
        size="sm"
        mb="md"
        display="inline-flex"
        style={{ alignItems: "center", gap: 4 }}
      >
        <IconArrowLeft size={16} /> {t("helpRequests.backToList")}
      </Anchor>
      {help.isPending ? (
        <Skeleton h={320} />
      ) : !help.data ? (
        <Alert color="gray" variant="light" icon={<IconInfoCircle />} data-testid="help-missing">
          {t("helpRequests.missing")}
        </Alert>
      ) : (
        <Stack gap="md">
          <Group gap="sm" ref={heading} tabIndex={-1} className={classes.focusTarget}>
            <HelpBadge count={help.data.count} color={help.data.color} />
            <Text fw={600}>{t("helpRequests.askedBy", { count: help.data.count })}</Text>
          </Group>
          <QuestionCard help={help.data} />
          {help.data.learners.length > 0 && (
            <Paper withBorder p={{ base: "md", sm: "lg" }}>
              <Title order={2} size="h4" mb="xs">
                {t("helpRequests.learners")}
              </Title>
              <List spacing={4} data-testid="help-learners">
                {help.data.learners.map((l) => (
                  <List.Item key={l.id}>
                    {l.name} {l.surname}
                    {l.facility ? ` (${l.facility})` : ""} – {formatDate(l.asked_at, zone)}
                  </List.Item>
                ))}
              </List>
            </Paper>
          )}
          {help.data.replies.length > 0 && (
            <Paper withBorder p={{ base: "md", sm: "lg" }} data-testid="help-replies">
              <Title order={2} size="h4" mb="xs">
                {t("helpRequests.replies")}
              </Title>
              <Stack gap="sm">
                {help.data.replies.map((r) => (
                  <div key={`${r.at}-${r.by}`}>
                    <Text size="sm" c="dimmed">
                      {t("helpRequests.replyMeta", {
                        name: r.by || t("helpRequests.formerStaff"),
                        date: formatDate(r.at, zone),
                        count: r.learners,
                      })}
                    </Text>
                    <Text style={{ whiteSpace: "pre-wrap" }}>{r.text}</Text>
                  </div>
                ))}
              </Stack>
            </Paper>
          )}
          {help.data.count > 0 ? (
            <ReplyForm help={help.data} facility={facility} />
          ) : (
            <Alert color="teal" variant="light" icon={<IconCheck />}>
              {t("helpRequests.allHandled")}
            </Alert>
          )}
          {can(user.roles, "help.flagContent") && (
            <Paper withBorder p={{ base: "md", sm: "lg" }}>
              <ContentFixSwitch help={help.data} />
            </Paper>
          )}
        </Stack>
      )}
    </>
  );
}

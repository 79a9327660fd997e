import { api, formatDate, type MyHelpRequest } from "@carecampus/contract";
import { Alert, Anchor, Badge, Blockquote, Card, Skeleton, Stack, Text } from "@mantine/core";
import { IconMessageCircle } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, useSearchParams } from "react-router";
import { call } from "../../api/client";
import { settings } from "../../app/settings";
import { PageHeader } from "../../components/PageHeader";
import { helpKeys } from "./queries";

/** The state of one request in words and colour: answered, closed without an answer, or open. */
function Status({ request: r }: { request: MyHelpRequest }) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const style = { textTransform: "none", alignSelf: "flex-start" } as const;
  if (r.reply) {
    return (
      <Badge color="teal.9" variant="filled" style={style}>
        {t("myQuestions.answered", { date: formatDate(r.reply.at, zone) })}
      </Badge>
    );
  }
  if (r.handled_at) {
    return (
      <Badge color="gray" variant="light" style={style}>
        {t("myQuestions.closed", { date: formatDate(r.handled_at, zone) })}
      </Badge>
    );
  }
  return (
    <Badge color="blue" variant="light" style={style}>
      {t("myQuestions.open")}
    </Badge>
  );
}

/**
 * /my-questions (issue 30): a learner's own help requests with their replies, the newest first,
 * so that an answer can be found again. `?question=` (the reply's notification) opens at that
 * question: it is scrolled to and takes the focus.
 */
export default function MyQuestionsPage() {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const [search] = useSearchParams();
  const asked = Number(search.get("question"));
  const list = useQuery({ queryKey: [...helpKeys.all, "mine"], queryFn: () => call(api.helpMine), staleTime: 0 });
  const target = useRef<HTMLDivElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);

  // Opened from a notification: that question; otherwise the page's title.
  useEffect(() => {
    if (!list.data) return;
    if (target.current) {
      target.current.scrollIntoView({ block: "center" });
      target.current.focus({ preventScroll: true });
    } else heading.current?.focus();
  }, [list.data]);

  // The newest request about the question asked for (a question can have been asked twice).
  const focused = list.data?.find((r) => r.question_id === asked)?.id;

  return (
    <>
      <PageHeader title={t("myQuestions.title")} headingRef={heading} />
      <Text c="dimmed" mb="md">
        {t("myQuestions.intro")}
      </Text>
      {list.isPending ? (
        <Skeleton h={200} />
      ) : !list.data ? (
        <Alert color="red" variant="light" role="alert">
          {t("myQuestions.failed")}
        </Alert>
      ) : list.data.length === 0 ? (
        <Text data-testid="my-questions-empty">{t("myQuestions.none", { button: t("quiz.help.short") })}</Text>
      ) : (
        <Stack gap="md" component="ul" style={{ listStyle: "none", margin: 0, padding: 0 }}>
          {list.data.map((r) => {
            const here = r.id === focused;
            return (
              <li key={r.id}>
                <Card
                  withBorder
                  padding="md"
                  ref={here ? target : undefined}
                  tabIndex={here ? -1 : undefined}
                  data-testid="my-question"
                  data-current={here || undefined}
                  style={here ? { borderColor: "var(--mantine-primary-color-filled)", borderWidth: 2 } : undefined}
                >
                  <Stack gap={6}>
                    <Text fw={600} style={{ overflowWrap: "anywhere" }}>
                      {r.question_text}
                    </Text>
                    <Text size="sm" c="dimmed">
                      <Anchor
                        component={Link}
                        to={`/topic/${r.topic_id}/training/${r.training_id}`}
                        size="sm"
                        td="underline"
                      >
                        {r.training}
                      </Anchor>
                      {" · "}
                      {t("myQuestions.asked", { date: formatDate(r.asked_at, zone) })}
                    </Text>
                    <Status request={r} />
                    {r.reply && (
                      <Blockquote
                        color="teal"
                        icon={<IconMessageCircle size={18} />}
                        iconSize={32}
                        p="sm"
                        mt="xs"
                        data-testid="my-question-reply"
                      >
                        <Text style={{ whiteSpace: "pre-wrap", overflowWrap: "anywhere" }}>{r.reply.text}</Text>
                        <Text size="sm" c="dimmed" mt={4}>
                          {t("myQuestions.replyBy", { name: r.reply.by })}
                        </Text>
                      </Blockquote>
                    )}
                  </Stack>
                </Card>
              </li>
            );
          })}
        </Stack>
      )}
    </>
  );
}

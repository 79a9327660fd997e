import { formatDate } from "@carecampus/contract";
import { Alert, Anchor, Button, Grid, Group, Paper, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconBook, IconFilePlus, IconFolderPlus, IconSignature } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { settings } from "../../app/settings";
import { useFacilityParam } from "../../components/FacilityScope";
import { PageHeader } from "../../components/PageHeader";
import { FacilityPicker } from "./FacilityPicker";
import { NewPageModal, NewTopicModal, writableScopes } from "./NewModals";
import { useWikiTree } from "./queries";
import { wikiPath } from "./scope";
import { TopicSection } from "./TopicSection";
import { WikiSearch } from "./WikiSearch";

/** /wiki: search, the tree of topics and pages, recently released pages, and for editors new topics and pages. */
export default function WikiHomePage() {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  const [facility] = useFacilityParam();
  const tree = useWikiTree(facility);
  const heading = useRef<HTMLHeadingElement>(null);
  const [dialog, setDialog] = useState<"topic" | "page" | null>(null);
  const open = (which: "topic" | "page") => setDialog(which);

  useEffect(() => {
    heading.current?.focus();
  }, []);

  const data = tree.data;
  const canWrite = data ? writableScopes(data).length > 0 : false;

  return (
    <>
      <PageHeader title={t("wiki.title")} headingRef={heading} />
      <FacilityPicker />
      {tree.isPending ? (
        <Stack>
          <Skeleton h={40} />
          <Skeleton h={240} />
        </Stack>
      ) : !data ? (
        <Alert color="gray" variant="light">
          {t("wiki.loadFailed")}
        </Alert>
      ) : (
        <Stack gap="lg">
          {data.to_confirm > 0 && (
            <Alert
              color="orange"
              variant="light"
              icon={<IconSignature />}
              title={t("wiki.toConfirm", { count: data.to_confirm })}
              data-testid="wiki-to-confirm"
            >
              {t("wiki.toConfirmHelp")}
            </Alert>
          )}
          <WikiSearch facility={facility} />
          {canWrite && (
            <Group gap="sm">
              <Button variant="default" leftSection={<IconFolderPlus size={18} />} onClick={() => open("topic")}>
                {t("wiki.new.topic")}
              </Button>
              <Button
                leftSection={<IconFilePlus size={18} />}
                onClick={() => open("page")}
                disabled={data.topics.length === 0}
              >
                {t("wiki.new.page")}
              </Button>
            </Group>
          )}
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 8 }}>
              <Stack gap="md" data-testid="wiki-tree">
                {data.topics.length === 0 ? (
                  <Alert color="gray" variant="light" icon={<IconBook />}>
                    {t("wiki.empty")}
                  </Alert>
                ) : (
                  data.topics.map((topic) => <TopicSection key={topic.id} topic={topic} facility={facility} />)
                )}
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 4 }}>
              <Paper withBorder p={{ base: "sm", sm: "md" }} component="section" aria-labelledby="wiki-recent">
                <Title order={2} size="h4" id="wiki-recent" mb="xs">
                  {t("wiki.recent")}
                </Title>
                {data.recent.length === 0 ? (
                  <Text size="sm" c="dimmed">
                    {t("wiki.noRecent")}
                  </Text>
                ) : (
                  <Stack
                    gap="xs"
                    component="ul"
                    style={{ listStyle: "none", padding: 0, margin: 0 }}
                    data-testid="wiki-recent"
                  >
                    {data.recent.map((r) => (
                      <li key={r.id}>
                        <Anchor component={Link} to={wikiPath(facility, r.topic, r.slug)} fw={600} size="sm">
                          {r.title}
                        </Anchor>
                        <Text size="xs" c="dimmed">
                          {t("wiki.releasedOn", { date: formatDate(r.released_at, zone) })}
                        </Text>
                      </li>
                    ))}
                  </Stack>
                )}
              </Paper>
            </Grid.Col>
          </Grid>
          <NewTopicModal opened={dialog === "topic"} onClose={() => setDialog(null)} tree={data} />
          <NewPageModal opened={dialog === "page"} onClose={() => setDialog(null)} tree={data} />
        </Stack>
      )}
    </>
  );
}

import type { WikiTopic } from "@carecampus/contract";
import { Paper, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { PageBadges } from "./PageBadges";
import { wikiPath } from "./scope";
import classes from "./wiki.module.css";

/** One topic of the tree: its title (a link to the topic) and its pages with their badges. */
export function TopicSection({
  topic,
  facility,
  headingLevel = 2,
  showTitle = true,
}: {
  topic: WikiTopic;
  facility: number | null;
  headingLevel?: 2 | 3;
  showTitle?: boolean;
}) {
  const { t } = useTranslation();
  const id = `wiki-topic-${topic.key}`;
  return (
    <Paper withBorder p={{ base: "sm", sm: "md" }} component="section" aria-labelledby={id} data-testid="wiki-topic">
      {showTitle ? (
        <Title order={headingLevel} size="h4" id={id} className={classes.topicTitle} mb={4}>
          <Link to={wikiPath(facility, topic.key)}>{topic.title}</Link>
        </Title>
      ) : (
        <Title order={headingLevel} size="h4" id={id} mb={4}>
          {t("wiki.pages")}
        </Title>
      )}
      {topic.pages.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("wiki.noPages")}
        </Text>
      ) : (
        <ul className={classes.pageList}>
          {topic.pages.map((p) => (
            <li key={p.id} data-testid="wiki-page-item" data-slug={p.slug}>
              <Link to={wikiPath(facility, topic.key, p.slug)} className={classes.pageLink}>
                <span className={classes.pageTitle}>{p.title}</span>
                <PageBadges page={p} />
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Paper>
  );
}

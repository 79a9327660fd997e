import { Anchor, Loader, Paper, Stack, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { IconSearch } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useReadingLanguage } from "../../components/ContentName";
import { useWikiSearch } from "./queries";
import { wikiPath } from "./scope";
import { snippetParts } from "./snippet";
import classes from "./wiki.module.css";

/** Full-text search over the released pages: ranked hits with the matched words marked. */
export function WikiSearch({ facility }: { facility: number | null }) {
  const { t } = useTranslation();
  const [input, setInput] = useState("");
  const [debounced] = useDebouncedValue(input.trim(), 300);
  const search = useWikiSearch(debounced, useReadingLanguage(), facility);
  const active = debounced.length >= 2;
  const hits = search.data?.hits ?? [];
  return (
    <section aria-labelledby="wiki-search-title">
      <VisuallyHidden component="h2" id="wiki-search-title">
        {t("wiki.search.title")}
      </VisuallyHidden>
      <TextInput
        type="search"
        label={t("wiki.search.label")}
        placeholder={t("wiki.search.placeholder")}
        value={input}
        onChange={(e) => setInput(e.currentTarget.value)}
        leftSection={<IconSearch size={16} aria-hidden />}
        rightSection={active && search.isFetching ? <Loader size="xs" aria-hidden /> : null}
        maxLength={200}
        mb="sm"
        data-testid="wiki-search"
      />
      <div aria-live="polite">
        {active && search.data && (
          <Text size="sm" c="dimmed" mb="xs" data-testid="wiki-search-count">
            {hits.length === 0 ? t("wiki.search.none") : t("wiki.search.count", { count: hits.length })}
          </Text>
        )}
      </div>
      {active && hits.length > 0 && (
        <Stack gap="xs" component="ol" style={{ listStyle: "none", padding: 0, margin: 0 }} data-testid="wiki-hits">
          {hits.map((hit) => (
            <Paper key={hit.id} withBorder p="sm" component="li">
              <Anchor component={Link} to={wikiPath(facility, hit.topic, hit.slug)} fw={600}>
                {hit.title}
              </Anchor>
              <Text size="xs" c="dimmed">
                {hit.topic_title}
              </Text>
              <Text size="sm" className={classes.snippet}>
                {snippetParts(hit.snippet).map((part, i) =>
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one snippet never move
                  part.mark ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>,
                )}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </section>
  );
}

import { Anchor, Button, Group, Skeleton, Stack } from "@mantine/core";
import { IconArrowLeft, IconFilePlus } from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, useParams } from "react-router";
import { useFacilityParam } from "../../components/FacilityScope";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { FacilityPicker } from "./FacilityPicker";
import { NewPageModal, writableScopes } from "./NewModals";
import { useWikiTree } from "./queries";
import { wikiPath } from "./scope";
import { TopicSection } from "./TopicSection";

/** /wiki/{topic}: the pages of one topic. */
export default function WikiTopicPage() {
  const { t } = useTranslation();
  const key = useParams().topic ?? "";
  const [facility] = useFacilityParam();
  const tree = useWikiTree(facility);
  const heading = useRef<HTMLHeadingElement>(null);
  const [creating, setCreating] = useState(false);
  const topic = tree.data?.topics.find((tp) => tp.key === key);

  const shown = topic?.key;
  useEffect(() => {
    if (shown) heading.current?.focus();
  }, [shown]);

  if (tree.isPending) return <Skeleton h={300} />;
  if (!tree.data || !topic) return <NotFoundPage />;
  const scopes = writableScopes(tree.data);
  const mayAdd = scopes.includes("facility") || (scopes.includes("common") && topic.facility_id === null);

  return (
    <>
      <PageHeader title={topic.title} headingRef={heading} />
      <FacilityPicker />
      <Stack gap="md">
        <Group justify="space-between">
          <Anchor
            component={Link}
            to={wikiPath(facility)}
            size="sm"
            display="inline-flex"
            style={{ alignItems: "center", gap: 4 }}
          >
            <IconArrowLeft size={16} aria-hidden /> {t("wiki.backToWiki")}
          </Anchor>
          {mayAdd && (
            <Button leftSection={<IconFilePlus size={18} />} onClick={() => setCreating(true)}>
              {t("wiki.new.page")}
            </Button>
          )}
        </Group>
        <TopicSection topic={topic} facility={facility} showTitle={false} />
      </Stack>
      <NewPageModal opened={creating} onClose={() => setCreating(false)} tree={tree.data} topic={topic.key} />
    </>
  );
}

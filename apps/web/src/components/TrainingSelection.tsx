import type { CatalogueTopic } from "@carecampus/contract";
import { ActionIcon, Anchor, Badge, Box, Checkbox, Collapse, Group, Stack, Text } from "@mantine/core";
import { IconChevronDown, IconChevronRight } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ContentIcon } from "./ContentIcon";

/** A topic's state in a training selection (spec §2): none, some or all of its trainings. */
export type TopicSelection = "none" | "some" | "all";

export function topicSelection(topic: CatalogueTopic, selected: ReadonlySet<number>): TopicSelection {
  const chosen = topic.trainings.filter((t) => selected.has(t.id)).length;
  if (chosen === 0) return "none";
  return chosen === topic.trainings.length ? "all" : "some";
}

interface Props {
  catalogue: readonly CatalogueTopic[];
  selected: ReadonlySet<number>;
  onChange: (next: Set<number>) => void;
  disabled?: boolean;
}

/**
 * The tri-state training matrix: a topic's box is checked when all its trainings are,
 * indeterminate when some are; clicking it selects all or, when all were, none.
 */
export function TrainingSelection({ catalogue, selected, onChange, disabled }: Props) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<ReadonlySet<number>>(new Set());
  const toggleOpen = (id: number) =>
    setOpen((o) => {
      const next = new Set(o);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  const setMany = (ids: number[], on: boolean) => {
    const next = new Set(selected);
    for (const id of ids) {
      if (on) next.add(id);
      else next.delete(id);
    }
    onChange(next);
  };
  const all = catalogue.flatMap((topic) => topic.trainings.map((tr) => tr.id));

  return (
    <Stack gap={4} data-testid="training-selection">
      <Group gap="xs" mb="xs">
        <Anchor
          component="button"
          type="button"
          fz="sm"
          disabled={disabled}
          onClick={() => setMany(all, true)}
          data-testid="select-all-trainings"
        >
          {t("trainingSelection.all")}
        </Anchor>
        <Text c="dimmed" size="sm">
          ·
        </Text>
        <Anchor component="button" type="button" fz="sm" disabled={disabled} onClick={() => setMany(all, false)}>
          {t("trainingSelection.none")}
        </Anchor>
        <Text c="dimmed" size="sm" ml="auto">
          {t("trainingSelection.count", { count: all.filter((id) => selected.has(id)).length, total: all.length })}
        </Text>
      </Group>
      {catalogue.map((topic) => {
        const state = topicSelection(topic, selected);
        const isOpen = open.has(topic.id);
        const chosen = topic.trainings.filter((tr) => selected.has(tr.id)).length;
        return (
          <Box key={topic.id} data-testid="selection-topic" data-state={state}>
            <Group gap="xs" wrap="nowrap" py={4}>
              <ActionIcon
                variant="subtle"
                color="gray"
                size="sm"
                onClick={() => toggleOpen(topic.id)}
                aria-expanded={isOpen}
                aria-label={t(isOpen ? "trainingSelection.collapse" : "trainingSelection.expand", { name: topic.name })}
              >
                {isOpen ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
              </ActionIcon>
              <Checkbox
                checked={state === "all"}
                indeterminate={state === "some"}
                disabled={disabled}
                onChange={() =>
                  setMany(
                    topic.trainings.map((tr) => tr.id),
                    state !== "all",
                  )
                }
                label={
                  <Group gap={6} wrap="nowrap">
                    <ContentIcon name={topic.icon} size={20} />
                    <Text size="sm" fw={500}>
                      {topic.name}
                    </Text>
                  </Group>
                }
              />
              <Badge variant="light" color={state === "none" ? "gray" : "blue"} ml="auto" style={{ flexShrink: 0 }}>
                {chosen}/{topic.trainings.length}
              </Badge>
            </Group>
            <Collapse expanded={isOpen}>
              <Stack gap={6} pl={56} py={4}>
                {topic.trainings.map((tr) => (
                  <Checkbox
                    key={tr.id}
                    checked={selected.has(tr.id)}
                    disabled={disabled}
                    onChange={(e) => setMany([tr.id], e.currentTarget.checked)}
                    label={
                      <Group gap={6} wrap="nowrap">
                        <Text size="sm">{tr.name}</Text>
                        {tr.passive && (
                          <Badge size="xs" variant="outline" color="gray">
                            {t("trainingSelection.passive")}
                          </Badge>
                        )}
                      </Group>
                    }
                  />
                ))}
              </Stack>
            </Collapse>
          </Box>
        );
      })}
    </Stack>
  );
}

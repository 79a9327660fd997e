import type { TranslationStatus } from "@carecampus/contract";
import { SegmentedControl, Text } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "react-i18next";

/** The statuses a person sets; "machine" comes from a machine's suggestion only. */
const SET_BY_PEOPLE: TranslationStatus[] = ["draft", "reviewed", "published"];

/** The statuses to choose from for a translation now `current` (issue 31): a machine's stays choosable while it is one. */
export function statusChoices(current: TranslationStatus | undefined): { value: TranslationStatus; label: string }[] {
  const list: TranslationStatus[] = current === "machine" ? ["machine", ...SET_BY_PEOPLE] : SET_BY_PEOPLE;
  return list.map((s) => ({ value: s, label: `authoring.translations.statuses.${s}` }));
}

/** A translation's status as one row of buttons, named by its label, with what the statuses mean below. */
export function TranslationStatusControl({
  value,
  onChange,
  label,
  help,
}: {
  value: TranslationStatus;
  onChange: (status: TranslationStatus) => void;
  label: string;
  help: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <div>
      <Text fw={600} size="sm" mb={4} id={id}>
        {label}
      </Text>
      <SegmentedControl
        aria-labelledby={id}
        value={value}
        onChange={(v) => onChange(v as TranslationStatus)}
        data={statusChoices(value).map((c) => ({ value: c.value, label: t(c.label) }))}
        fullWidth
      />
      <Text size="xs" c="dimmed" mt={4}>
        {help}
      </Text>
    </div>
  );
}

import { COLOUR_ORDER } from "@carecampus/contract";
import { Box, Group, Stack, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { EXPIRY_COLOURS } from "../../components/ExpiryBadge";

/**
 * The colour legend of the overview (spec §2): red, orange, yellow, green. The note says what
 * the colours follow where the dates on screen are another one (the matrix's acquired dates).
 */
export function Legend({ note }: { note?: string }) {
  const { t } = useTranslation();
  return (
    <Stack gap={4}>
      <Group gap="md" data-testid="legend" role="list" aria-label={t("progress.legend")}>
        {COLOUR_ORDER.map((colour) => (
          <Group key={colour} gap={6} wrap="nowrap" role="listitem">
            <Box w={14} h={14} bg={`${EXPIRY_COLOURS[colour]}.6`} style={{ borderRadius: 3 }} />
            <Text size="sm">{t(`expiry.${colour}`)}</Text>
          </Group>
        ))}
      </Group>
      {note && (
        <Text size="sm" data-testid="legend-note">
          {note}
        </Text>
      )}
    </Stack>
  );
}

import { api, type Invitee, type ProposalEntry } from "@carecampus/contract";
import { Badge, Button, Checkbox, Group, Loader, ScrollArea, Stack, Text } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { call } from "../../api/client";
import { expiryBadgeProps } from "../../components/ExpiryBadge";
import { calendarKeys } from "../../queries/calendar";

interface Props {
  facility: number;
  training: number;
  /** YYYY-MM-DD of the event. */
  day: string;
  selected: number[];
  /** The invitees of a stored event (they stay listed even when no longer proposed). */
  current: Invitee[] | undefined;
  /** A new event starts with these of the proposal ticked (the proposed, or whom the planner asked for). */
  preselect: ((p: ProposalEntry) => boolean) | null;
  disabled: boolean;
  onChange: (ids: number[]) => void;
}

/**
 * The invitations: the facility's employees who must do the training, those whose certificate
 * is missing, expired or expires before the event proposed first (the overview's red, orange
 * and yellow), each with the state of their certificate.
 */
export function InviteePicker({ facility, training, day, selected, current, preselect, disabled, onChange }: Props) {
  const { t } = useTranslation();
  const proposal = useQuery({
    queryKey: calendarKeys.proposal(facility, training, day),
    queryFn: () => call(api.calendarProposal, { query: { facility, training, start: day } }),
  });
  const applied = useRef<string | null>(null);
  const key = `${facility}/${training}/${day}`;
  useEffect(() => {
    if (!preselect || !proposal.data || applied.current === key) return;
    applied.current = key;
    onChange(proposal.data.filter(preselect).map((p) => p.id));
  }, [preselect, proposal.data, key, onChange]);

  const people: ProposalEntry[] = [...(proposal.data ?? [])];
  for (const i of current ?? []) {
    if (!people.some((p) => p.id === i.id)) people.push({ ...i, proposed: false });
  }
  const chosen = new Set(selected);
  const toggle = (id: number, on: boolean) =>
    onChange(on ? [...selected.filter((x) => x !== id), id] : selected.filter((x) => x !== id));

  return (
    <Stack gap={6} data-testid="invitees">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Text size="sm" fw={500} id="invitees-label">
          {t("calendar.invitees", { count: selected.length })}
        </Text>
        <Group gap={4}>
          <Button
            variant="subtle"
            size="compact-sm"
            disabled={disabled || !proposal.data}
            onClick={() => onChange(people.filter((p) => p.proposed).map((p) => p.id))}
          >
            {t("calendar.inviteProposed")}
          </Button>
          <Button variant="subtle" size="compact-sm" disabled={disabled} onClick={() => onChange([])}>
            {t("calendar.inviteNone")}
          </Button>
        </Group>
      </Group>
      {proposal.isPending ? (
        <Loader size="sm" />
      ) : people.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t("calendar.nobody")}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={240} type="auto" offsetScrollbars="y">
          <Stack gap={6} role="group" aria-labelledby="invitees-label">
            {people.map((p) => (
              <Group key={p.id} justify="space-between" wrap="nowrap" gap="xs" data-testid="invitee">
                <Checkbox
                  label={`${p.name} ${p.surname}`}
                  checked={chosen.has(p.id)}
                  disabled={disabled}
                  onChange={(e) => toggle(p.id, e.currentTarget.checked)}
                />
                <Badge {...expiryBadgeProps(p.colour)} style={{ flexShrink: 0 }} data-colour={p.colour}>
                  {t(`expiry.${p.colour}`)}
                </Badge>
              </Group>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
    </Stack>
  );
}

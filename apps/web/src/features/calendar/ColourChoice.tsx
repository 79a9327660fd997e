import { ColorSwatch, Group, Text, UnstyledButton } from "@mantine/core";
import { IconCheck } from "@tabler/icons-react";
import { type KeyboardEvent, useRef } from "react";

/**
 * The event's colour as a radio group (WAI-ARIA radio pattern): one Tab stop, the chosen swatch;
 * the arrow keys move the choice and the focus to the next or previous swatch, wrapping around.
 */
export function ColourChoice({
  label,
  colours,
  names,
  value,
  disabled,
  onChange,
}: {
  label: string;
  colours: readonly string[];
  /** Each colour's name, read by screen readers. */
  names: readonly string[];
  value: string;
  disabled: boolean;
  onChange: (colour: string) => void;
}) {
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const chosen = Math.max(0, colours.indexOf(value));
  const onKeyDown = (event: KeyboardEvent) => {
    const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
    if (step === undefined || disabled) return;
    event.preventDefault();
    const next = (chosen + step + colours.length) % colours.length;
    onChange(colours[next] as string);
    buttons.current[next]?.focus();
  };
  return (
    <div role="radiogroup" aria-label={label} onKeyDown={onKeyDown}>
      <Text size="sm" fw={500} mb={4} aria-hidden>
        {label}
      </Text>
      <Group gap="xs">
        {colours.map((c, i) => (
          <UnstyledButton
            key={c}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            role="radio"
            aria-checked={i === chosen}
            aria-label={names[i]}
            tabIndex={i === chosen ? 0 : -1}
            onClick={() => onChange(c)}
            disabled={disabled}
            data-testid="event-colour"
          >
            <ColorSwatch color={c} size={32}>
              {i === chosen && <IconCheck size={18} color="#fff" />}
            </ColorSwatch>
          </UnstyledButton>
        ))}
      </Group>
    </div>
  );
}

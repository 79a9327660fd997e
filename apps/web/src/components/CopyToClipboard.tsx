import { Button, type ButtonProps, Group, Text } from "@mantine/core";
import { IconCheck, IconCopy } from "@tabler/icons-react";
import { type RefObject, useState } from "react";
import { useTranslation } from "react-i18next";

type CopyState = "copied" | "failed";

/** Selects the text of `element`, so the person can copy it by hand when the app cannot. */
function selectText(element: HTMLElement | null | undefined) {
  const selection = window.getSelection();
  if (!element || !selection) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

interface CopyToClipboardProps extends Omit<ButtonProps, "children" | "leftSection"> {
  value: string;
  label: string;
  /** The element showing the value: selected when the clipboard is not available. */
  source?: RefObject<HTMLElement | null>;
  /** Ids of elements describing the button (e.g. the value it copies). */
  describedBy?: string;
  autoFocus?: boolean;
  buttonRef?: RefObject<HTMLButtonElement | null>;
}

/**
 * A copy button that says what happened in the app (a polite live region), not only through the
 * browser: 'copied', or — without a clipboard (plain http, an old browser, a refused permission)
 * — that the value is selected for copying by hand.
 */
export function CopyToClipboard({
  value,
  label,
  source,
  describedBy,
  autoFocus,
  buttonRef,
  ...button
}: CopyToClipboardProps) {
  const { t } = useTranslation();
  // What happened to which value: a new value has not been copied yet.
  const [last, setLast] = useState<{ value: string; state: CopyState } | null>(null);
  const state = last?.value === value ? last.state : "idle";

  const copy = async () => {
    try {
      if (!window.isSecureContext || !navigator.clipboard?.writeText) throw new Error("no clipboard");
      await navigator.clipboard.writeText(value);
      setLast({ value, state: "copied" });
    } catch {
      setLast({ value, state: "failed" });
      selectText(source?.current);
    }
  };

  return (
    <Group gap="xs" wrap="wrap" align="center">
      <Button
        variant="light"
        {...button}
        ref={buttonRef}
        leftSection={state === "copied" ? <IconCheck size={16} /> : <IconCopy size={16} />}
        onClick={() => void copy()}
        aria-describedby={describedBy}
        data-autofocus={autoFocus || undefined}
      >
        {label}
      </Button>
      <Text
        size="sm"
        role="status"
        fw={state === "idle" ? undefined : 500}
        data-testid="copy-status"
        data-state={state}
        style={{ flex: "1 1 12rem" }}
      >
        {state === "copied" ? t("common.copied") : state === "failed" ? t("common.copyFailed") : ""}
      </Text>
    </Group>
  );
}

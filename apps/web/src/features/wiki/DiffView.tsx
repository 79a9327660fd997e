import type { WikiDiff } from "@carecampus/contract";
import { Button, Text, VisuallyHidden } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { foldDiff, type Line } from "./fold";
import classes from "./wiki.module.css";

const SIGN = { same: " ", added: "+", removed: "−", changed: "~" } as const;
/**
 * A readable diff: each line with a sign (+ added, − removed, ~ changed) and a word for screen
 * readers; removed text struck through, added text underlined. Colour is only the second cue.
 */
export function DiffView({ diff }: { diff: WikiDiff }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<Set<number>>(new Set());
  const items = foldDiff(diff.lines, open);
  return (
    <>
      <Text size="sm" mb="xs" data-testid="wiki-diff-summary">
        {t("wiki.history.diffSummary", { from: diff.from, to: diff.to, added: diff.added, removed: diff.removed })}
      </Text>
      {diff.title.from !== diff.title.to && (
        <Text size="sm" mb="xs">
          {t("wiki.history.titleChanged")} <del>{diff.title.from}</del> → <ins>{diff.title.to}</ins>
        </Text>
      )}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a wide diff scrolls sideways; the keyboard must reach it */}
      <ol className={classes.diff} data-testid="wiki-diff" aria-label={t("wiki.history.diffLabel")} tabIndex={0}>
        {items.map((item) =>
          item.kind === "fold" ? (
            <li key={`fold-${item.start}`} className={classes.diffLine} data-type="fold">
              <span className={classes.diffSign} aria-hidden>
                ⋯
              </span>
              <span>
                <Button variant="subtle" size="compact-xs" onClick={() => setOpen((o) => new Set(o).add(item.start))}>
                  {t("wiki.history.unchanged", { count: item.lines })}
                </Button>
              </span>
            </li>
          ) : (
            <DiffLineView key={item.index} line={item.line} />
          ),
        )}
      </ol>
    </>
  );
}

function DiffLineView({ line }: { line: Line }) {
  const { t } = useTranslation();
  return (
    <li className={classes.diffLine} data-type={line.type}>
      <span className={classes.diffSign} aria-hidden>
        {SIGN[line.type]}
      </span>
      <span className={classes.diffText}>
        {line.type !== "same" && <VisuallyHidden>{t(`wiki.history.line.${line.type}`)}: </VisuallyHidden>}
        {line.type === "changed" && line.parts
          ? line.parts.map((part, j) =>
              part.type === "added" ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one line never move
                <ins key={j}>{part.text}</ins>
              ) : part.type === "removed" ? (
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <del key={j}>{part.text}</del>
              ) : (
                // biome-ignore lint/suspicious/noArrayIndexKey: see above
                <span key={j}>{part.text}</span>
              ),
            )
          : line.text || "\u00a0"}
      </span>
    </li>
  );
}

import type { WikiCallout } from "@carecampus/contract";
import { ActionIcon, Divider, Group, Tooltip } from "@mantine/core";
import {
  IconAlertTriangle,
  IconArrowBackUp,
  IconArrowForwardUp,
  IconBold,
  IconColumnInsertRight,
  IconColumnRemove,
  IconH2,
  IconH3,
  IconInfoCircle,
  IconItalic,
  IconLink,
  IconList,
  IconListNumbers,
  IconPhoto,
  IconRowInsertBottom,
  IconRowRemove,
  IconTable,
  IconTableOff,
} from "@tabler/icons-react";
import { type Editor, useEditorState } from "@tiptap/react";
import { type ReactNode, useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";

interface Tool {
  key: string;
  label: string;
  icon: ReactNode;
  run: () => void;
  /** Set for toggles (aria-pressed); undefined for plain actions. */
  pressed?: boolean;
  disabled?: boolean;
}

/**
 * The formatting toolbar (WAI-ARIA toolbar pattern): one tab stop, arrow keys move between the
 * buttons, toggles say whether they are on (aria-pressed), every button has a name.
 */
export function Toolbar({
  editor,
  onLink,
  onImage,
  controls,
}: {
  editor: Editor;
  onLink: () => void;
  onImage: () => void;
  controls: string;
}) {
  const { t } = useTranslation();
  const bar = useRef<HTMLDivElement>(null);
  const current = useRef(0);
  const state = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e.isActive("heading", { level: 2 }),
      h3: e.isActive("heading", { level: 3 }),
      bold: e.isActive("bold"),
      italic: e.isActive("italic"),
      bullet: e.isActive("bulletList"),
      ordered: e.isActive("orderedList"),
      link: e.isActive("link"),
      table: e.isActive("table"),
      warning: e.isActive("callout", { kind: "warning" }),
      note: e.isActive("callout", { kind: "note" }),
      canUndo: e.can().undo(),
      canRedo: e.can().redo(),
    }),
  });
  const chain = () => editor.chain().focus();
  const callout = (kind: WikiCallout) => chain().toggleCallout(kind).run();

  const groups: Tool[][] = [
    [
      {
        key: "h2",
        label: t("wiki.editor.tools.h2"),
        icon: <IconH2 />,
        pressed: state.h2,
        run: () => chain().toggleHeading({ level: 2 }).run(),
      },
      {
        key: "h3",
        label: t("wiki.editor.tools.h3"),
        icon: <IconH3 />,
        pressed: state.h3,
        run: () => chain().toggleHeading({ level: 3 }).run(),
      },
      {
        key: "bold",
        label: t("wiki.editor.tools.bold"),
        icon: <IconBold />,
        pressed: state.bold,
        run: () => chain().toggleBold().run(),
      },
      {
        key: "italic",
        label: t("wiki.editor.tools.italic"),
        icon: <IconItalic />,
        pressed: state.italic,
        run: () => chain().toggleItalic().run(),
      },
    ],
    [
      {
        key: "bullet",
        label: t("wiki.editor.tools.bulletList"),
        icon: <IconList />,
        pressed: state.bullet,
        run: () => chain().toggleBulletList().run(),
      },
      {
        key: "ordered",
        label: t("wiki.editor.tools.orderedList"),
        icon: <IconListNumbers />,
        pressed: state.ordered,
        run: () => chain().toggleOrderedList().run(),
      },
      {
        key: "warning",
        label: t("wiki.editor.tools.warning"),
        icon: <IconAlertTriangle />,
        pressed: state.warning,
        run: () => callout("warning"),
      },
      {
        key: "note",
        label: t("wiki.editor.tools.note"),
        icon: <IconInfoCircle />,
        pressed: state.note,
        run: () => callout("note"),
      },
    ],
    [
      { key: "link", label: t("wiki.editor.tools.link"), icon: <IconLink />, pressed: state.link, run: onLink },
      { key: "image", label: t("wiki.editor.tools.image"), icon: <IconPhoto />, run: onImage },
      {
        key: "table",
        label: t("wiki.editor.tools.table"),
        icon: <IconTable />,
        disabled: state.table,
        run: () => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
      },
    ],
    ...(state.table
      ? [
          [
            {
              key: "row",
              label: t("wiki.editor.tools.addRow"),
              icon: <IconRowInsertBottom />,
              run: () => chain().addRowAfter().run(),
            },
            {
              key: "col",
              label: t("wiki.editor.tools.addColumn"),
              icon: <IconColumnInsertRight />,
              run: () => chain().addColumnAfter().run(),
            },
            {
              key: "delrow",
              label: t("wiki.editor.tools.deleteRow"),
              icon: <IconRowRemove />,
              run: () => chain().deleteRow().run(),
            },
            {
              key: "delcol",
              label: t("wiki.editor.tools.deleteColumn"),
              icon: <IconColumnRemove />,
              run: () => chain().deleteColumn().run(),
            },
            {
              key: "deltable",
              label: t("wiki.editor.tools.deleteTable"),
              icon: <IconTableOff />,
              run: () => chain().deleteTable().run(),
            },
          ],
        ]
      : []),
    [
      {
        key: "undo",
        label: t("wiki.editor.tools.undo"),
        icon: <IconArrowBackUp />,
        disabled: !state.canUndo,
        run: () => chain().undo().run(),
      },
      {
        key: "redo",
        label: t("wiki.editor.tools.redo"),
        icon: <IconArrowForwardUp />,
        disabled: !state.canRedo,
        run: () => chain().redo().run(),
      },
    ],
  ];

  // Roving tab index: exactly one button is in the tab order, the one used last.
  useEffect(() => {
    const buttons = [...(bar.current?.querySelectorAll<HTMLButtonElement>("button[data-tool]:not(:disabled)") ?? [])];
    if (current.current >= buttons.length) current.current = 0;
    buttons.forEach((b, i) => {
      b.tabIndex = i === current.current ? 0 : -1;
    });
  });

  const onKeyDown = (e: React.KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(bar.current?.querySelectorAll<HTMLButtonElement>("button[data-tool]:not(:disabled)") ?? [])];
    const at = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (at < 0) return;
    let next = at;
    if (e.key === "ArrowRight") next = (at + 1) % buttons.length;
    else if (e.key === "ArrowLeft") next = (at - 1 + buttons.length) % buttons.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = buttons.length - 1;
    else return;
    e.preventDefault();
    for (const b of buttons) b.tabIndex = -1;
    const target = buttons[next];
    if (!target) return;
    target.tabIndex = 0;
    current.current = next;
    target.focus();
  };

  return (
    <Group
      ref={bar}
      role="toolbar"
      aria-label={t("wiki.editor.toolbar")}
      aria-controls={controls}
      gap={4}
      p={4}
      onKeyDown={onKeyDown}
      data-testid="wiki-toolbar"
      style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}
    >
      {groups.map((group, g) => (
        <Group key={group[0]?.key ?? g} gap={2} wrap="nowrap">
          {g > 0 && <Divider orientation="vertical" mx={2} />}
          {group.map((tool) => (
            <Tooltip key={tool.key} label={tool.label} openDelay={400}>
              <ActionIcon
                data-tool={tool.key}
                size="lg"
                variant={tool.pressed ? "filled" : "default"}
                aria-label={tool.label}
                aria-pressed={tool.pressed}
                disabled={tool.disabled}
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => {
                  tool.run();
                }}
                onFocus={(e) => {
                  const buttons = [
                    ...(bar.current?.querySelectorAll<HTMLButtonElement>("button[data-tool]:not(:disabled)") ?? []),
                  ];
                  current.current = Math.max(0, buttons.indexOf(e.currentTarget));
                }}
              >
                {tool.icon}
              </ActionIcon>
            </Tooltip>
          ))}
        </Group>
      ))}
    </Group>
  );
}

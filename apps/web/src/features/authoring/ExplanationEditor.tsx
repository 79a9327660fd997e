import { ActionIcon, Group, Paper } from "@mantine/core";
import { IconBold, IconItalic, IconList, IconListNumbers } from "@tabler/icons-react";
import { EditorContent, useEditor } from "@tiptap/react";
import StarterKit from "@tiptap/starter-kit";
import { useTranslation } from "react-i18next";
import safe from "../../components/SafeHtml.module.css";

/**
 * The explanation's rich text (lazy: only editors load TipTap). HTML goes out as written; the
 * server keeps only the contract's EXPLANATION_TAGS when it stores it.
 */
export default function ExplanationEditor({
  value,
  onChange,
  labelId,
  invalid,
  lang,
  dir,
}: {
  value: string;
  onChange: (html: string) => void;
  labelId: string;
  invalid: boolean;
  /** The language the text is written in (a translation's), on the editable area only: the toolbar speaks the interface's. */
  lang?: string;
  dir?: "rtl";
}) {
  const { t } = useTranslation();
  const editor = useEditor({
    extensions: [StarterKit.configure({ heading: false, codeBlock: false, blockquote: false, horizontalRule: false })],
    content: value,
    immediatelyRender: true,
    editorProps: {
      attributes: {
        "aria-labelledby": labelId,
        "aria-multiline": "true",
        role: "textbox",
        "data-testid": "explanation-editor",
        ...(lang && { lang }),
        ...(dir && { dir }),
        style: "min-height: 6rem; outline: none; padding: 8px 12px;",
      },
    },
    onUpdate: ({ editor: e }) => onChange(e.isEmpty ? "" : e.getHTML()),
  });
  const button = (label: string, icon: React.ReactNode, run: () => void, active: boolean) => (
    <ActionIcon
      variant={active ? "filled" : "subtle"}
      size="lg"
      aria-label={label}
      aria-pressed={active}
      onMouseDown={(e) => e.preventDefault()}
      onClick={run}
    >
      {icon}
    </ActionIcon>
  );
  return (
    <Paper withBorder style={invalid ? { borderColor: "var(--mantine-color-error)" } : undefined}>
      <Group gap={4} p={4} style={{ borderBottom: "1px solid var(--mantine-color-default-border)" }}>
        {button(
          t("authoring.rich.bold"),
          <IconBold size={18} />,
          () => editor?.chain().focus().toggleBold().run(),
          !!editor?.isActive("bold"),
        )}
        {button(
          t("authoring.rich.italic"),
          <IconItalic size={18} />,
          () => editor?.chain().focus().toggleItalic().run(),
          !!editor?.isActive("italic"),
        )}
        {button(
          t("authoring.rich.bullets"),
          <IconList size={18} />,
          () => editor?.chain().focus().toggleBulletList().run(),
          !!editor?.isActive("bulletList"),
        )}
        {button(
          t("authoring.rich.numbers"),
          <IconListNumbers size={18} />,
          () => editor?.chain().focus().toggleOrderedList().run(),
          !!editor?.isActive("orderedList"),
        )}
      </Group>
      <div className={safe.html}>
        <EditorContent editor={editor} />
      </div>
    </Paper>
  );
}

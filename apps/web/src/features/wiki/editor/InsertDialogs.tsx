import { WIKI_IMAGE_TYPES } from "@carecampus/contract";
import { Alert, Button, FileInput, Group, Modal, Stack, TextInput } from "@mantine/core";
import { IconPhoto } from "@tabler/icons-react";
import type { Editor } from "@tiptap/react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "../../../api/client";
import { imageProblem, uploadWikiImage } from "../upload";
import { ALLOWED_LINK } from "./extensions";

/** A link on the selected text: https, mailto or a path inside the product; empty removes it. */
export function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const { t } = useTranslation();
  const existing = (editor.getAttributes("link").href as string | undefined) ?? "";
  const [href, setHref] = useState(existing);
  const value = href.trim();
  const valid = value === "" || ALLOWED_LINK.test(value);

  const apply = (e: React.FormEvent) => {
    e.preventDefault();
    if (!valid) return;
    const chain = editor.chain().focus().extendMarkRange("link");
    if (value === "") chain.unsetLink().run();
    else if (editor.state.selection.empty && !editor.isActive("link")) {
      chain.insertContent({ type: "text", text: value, marks: [{ type: "link", attrs: { href: value } }] }).run();
    } else chain.setLink({ href: value }).run();
    onClose();
  };

  return (
    <Modal opened onClose={onClose} title={t("wiki.editor.linkTitle")} centered>
      <form onSubmit={apply}>
        <Stack gap="sm">
          <TextInput
            label={t("wiki.editor.linkUrl")}
            description={t("wiki.editor.linkHelp")}
            value={href}
            onChange={(e) => setHref(e.currentTarget.value)}
            error={valid ? null : t("wiki.editor.linkInvalid")}
            placeholder="https://"
            data-autofocus
          />
          <Group justify="flex-end">
            {existing && (
              <Button
                variant="default"
                color="red"
                onClick={() => {
                  editor.chain().focus().extendMarkRange("link").unsetLink().run();
                  onClose();
                }}
              >
                {t("wiki.editor.linkRemove")}
              </Button>
            )}
            <Button variant="default" onClick={onClose}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" disabled={!valid}>
              {t("wiki.editor.apply")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** Uploads a picture (PNG, JPEG, WebP or GIF, at most 5 MiB) and puts it in with its description. */
export function ImageDialog({
  editor,
  facility,
  onClose,
}: {
  editor: Editor;
  facility: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const problem = file ? imageProblem(file) : null;

  const upload = async (e: React.FormEvent) => {
    e.preventDefault();
    if (!file || problem) return;
    setBusy(true);
    setFailure(null);
    try {
      const image = await uploadWikiImage(file, facility);
      editor.chain().focus().setImage({ src: image.src, alt: alt.trim() }).run();
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.status === 413) setFailure(t("wiki.editor.imageSize"));
      else if (err instanceof ApiError && err.status === 400) setFailure(t("wiki.editor.imageType"));
      else setFailure(errorText(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened onClose={onClose} title={t("wiki.editor.imageTitle")} centered>
      <form onSubmit={(e) => void upload(e)}>
        <Stack gap="sm">
          <FileInput
            label={t("wiki.editor.imageFile")}
            description={t("wiki.editor.imageHelp")}
            accept={WIKI_IMAGE_TYPES.join(",")}
            value={file}
            onChange={(f) => {
              setFile(f);
              setFailure(null);
            }}
            leftSection={<IconPhoto size={16} aria-hidden />}
            error={
              problem === "type" ? t("wiki.editor.imageType") : problem === "size" ? t("wiki.editor.imageSize") : null
            }
            clearable
            required
            data-autofocus
          />
          <TextInput
            label={t("wiki.editor.imageAlt")}
            description={t("wiki.editor.imageAltHelp")}
            value={alt}
            onChange={(e) => setAlt(e.currentTarget.value)}
            maxLength={300}
          />
          {failure && (
            <Alert color="red" variant="light" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={busy}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" loading={busy} disabled={!file || !!problem}>
              {t("wiki.editor.imageInsert")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { ErrorCode, WIKI_IMAGE_TYPES } from "@carecampus/contract";
import { Alert, Button, FileInput, Group, Modal, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { IconPhoto } from "@tabler/icons-react";
import { useMutation } from "@tanstack/react-query";
import type { Editor } from "@tiptap/react";
import { useTranslation } from "react-i18next";
import { ApiError, errorText } from "../../../api/client";
import { imageProblem, uploadWikiImage } from "../upload";
import { ALLOWED_LINK } from "./extensions";

/** A link on the selected text: https, mailto or a path inside the product; empty removes it. */
export function LinkDialog({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const { t } = useTranslation();
  const existing = (editor.getAttributes("link").href as string | undefined) ?? "";
  const form = useForm({
    mode: "controlled",
    initialValues: { href: existing },
    validate: {
      href: (href) => (href.trim() === "" || ALLOWED_LINK.test(href.trim()) ? null : t("wiki.editor.linkInvalid")),
    },
    validateInputOnChange: true,
  });

  const apply = form.onSubmit(({ href }) => {
    const value = href.trim();
    const chain = editor.chain().focus().extendMarkRange("link");
    if (value === "") chain.unsetLink().run();
    else if (editor.state.selection.empty && !editor.isActive("link")) {
      chain.insertContent({ type: "text", text: value, marks: [{ type: "link", attrs: { href: value } }] }).run();
    } else chain.setLink({ href: value }).run();
    onClose();
  });

  return (
    <Modal opened onClose={onClose} title={t("wiki.editor.linkTitle")} centered>
      <form onSubmit={apply}>
        <Stack gap="sm">
          <TextInput
            label={t("wiki.editor.linkUrl")}
            description={t("wiki.editor.linkHelp")}
            {...form.getInputProps("href")}
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
            <Button type="submit" disabled={!form.isValid()}>
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
  const form = useForm<{ file: File | null; alt: string }>({
    mode: "controlled",
    initialValues: { file: null, alt: "" },
    validate: {
      file: (file) => {
        const problem = file ? imageProblem(file) : null;
        return problem === "type" ? t("wiki.editor.imageType") : problem === "size" ? t("wiki.editor.imageSize") : null;
      },
    },
    validateInputOnChange: ["file"],
    onValuesChange: (values, previous) => {
      if (values.file !== previous.file) upload.reset();
    },
  });
  const upload = useMutation({
    mutationFn: ({ file, alt }: { file: File; alt: string }) =>
      uploadWikiImage(file, facility).then((image) => ({ image, alt })),
    onSuccess: ({ image, alt }) => {
      editor.chain().focus().setImage({ src: image.src, alt }).run();
      onClose();
    },
  });
  // 413 is also the installation's full media quota (1109): that one says so (errorText).
  const failure = upload.error
    ? upload.error instanceof ApiError &&
      upload.error.status === 413 &&
      upload.error.code !== ErrorCode.mediaQuotaExceeded
      ? t("wiki.editor.imageSize")
      : upload.error instanceof ApiError && upload.error.status === 400
        ? t("wiki.editor.imageType")
        : errorText(upload.error)
    : null;
  const busy = upload.isPending;
  const { file } = form.getValues();

  return (
    <Modal opened onClose={onClose} title={t("wiki.editor.imageTitle")} centered>
      <form
        onSubmit={form.onSubmit(({ file, alt }) => {
          if (file) upload.mutate({ file, alt: alt.trim() });
        })}
      >
        <Stack gap="sm">
          <FileInput
            label={t("wiki.editor.imageFile")}
            description={t("wiki.editor.imageHelp")}
            accept={WIKI_IMAGE_TYPES.join(",")}
            {...form.getInputProps("file")}
            leftSection={<IconPhoto size={16} aria-hidden />}
            clearable
            required
            data-autofocus
          />
          <TextInput
            label={t("wiki.editor.imageAlt")}
            description={t("wiki.editor.imageAltHelp")}
            {...form.getInputProps("alt")}
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
            <Button type="submit" loading={busy} disabled={!file || !form.isValid()}>
              {t("wiki.editor.imageInsert")}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import { Button, Group, Modal, Text } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";

interface ConfirmDialogProps {
  opened: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  danger?: boolean;
  /** What the confirmation is about in detail (e.g. the names it touches), below the message. */
  children?: ReactNode;
  /** False when the confirmed action shows its result and moves the focus there itself. */
  returnFocus?: boolean;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/** The confirmation dialog mechanism of spec §2: a question, cancel, and a confirm that may take a moment. */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  danger,
  children,
  returnFocus = true,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  const { t } = useTranslation();
  const confirm = useMutation({
    mutationFn: () => onConfirm(),
    // A failure: the API client shows the error toast; the dialog stays for another try.
    onSuccess: onClose,
  });
  const busy = confirm.isPending;
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={title}
      centered
      closeOnClickOutside={!busy}
      returnFocus={returnFocus}
    >
      <Text mb="lg">{message}</Text>
      {children}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          {t("common.cancel")}
        </Button>
        <Button color={danger ? "red" : undefined} onClick={() => confirm.mutate()} loading={busy}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}

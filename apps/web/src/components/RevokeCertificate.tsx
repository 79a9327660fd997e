import {
  api,
  type CertificateRef,
  type CertificateRevocation,
  formatDate,
  REVOCATION_REASONS,
  REVOKE_NOTE_MAX,
  type RevocationReason,
} from "@carecampus/contract";
import { Badge, Button, Group, Radio, Stack, Text, Textarea } from "@mantine/core";
import { IconCertificateOff } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { type RefObject, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../api/client";
import { settings } from "../app/settings";
import { learningKeys } from "../queries/learning";
import { ConfirmDialog } from "./ConfirmDialog";

/** The element id of a certificate's line. */
export const certificateLineId = (id: number) => `certificate-${id}`;

/** The certificate just revoked here, whose line takes the focus once it shows it revoked. */
let focusWhenRevoked: number | null = null;

/**
 * Moves the focus to a certificate's line (`line`) when it shows as revoked after this tab
 * revoked it: the dialog is gone by then (its button went with the certificate's state), so
 * nothing pulls the focus back.
 */
export function useFocusWhenRevoked(certificate: CertificateRef, line: RefObject<HTMLElement | null>): void {
  const revoked = Boolean(certificate.revoked);
  useEffect(() => {
    if (!revoked || focusWhenRevoked !== certificate.id) return;
    focusWhenRevoked = null;
    line.current?.focus();
  }, [revoked, certificate.id, line]);
}

/** A revoked certificate's mark: the badge, the day and the reason in words. */
export function RevokedMark({ revoked }: { revoked: CertificateRevocation }) {
  const { t } = useTranslation();
  return (
    <Group gap={6} wrap="wrap" component="span" data-testid="revoked-mark">
      <Badge color="red" variant="light" size="sm">
        {t("revoke.badge")}
      </Badge>
      <Text component="span" size="xs">
        {t("revoke.line", {
          date: formatDate(revoked.at, settings["time-zone"]),
          reason: t(`revoke.reasons.${revoked.reason}`),
        })}
      </Text>
    </Group>
  );
}

/**
 * Staff's "Revoke" of one certificate (issue 29): a dialog with the reason in words and an
 * optional note. Once revoked, the holder's progress is read again and the focus moves to the
 * certificate's line, which now shows it revoked.
 */
export function RevokeCertificateButton({
  certificate,
  training,
  userId,
}: {
  certificate: CertificateRef;
  training: string;
  userId: number;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const [reason, setReason] = useState<RevocationReason>("issued_in_error");
  const [note, setNote] = useState("");
  const date = formatDate(certificate.acquired_at, settings["time-zone"]);
  const close = () => {
    setOpened(false);
    setReason("issued_in_error");
    setNote("");
  };
  const revoke = async () => {
    const trimmed = note.trim();
    await call(api.certificateRevoke, {
      params: { id: certificate.id },
      body: trimmed ? { reason, note: trimmed } : { reason },
    });
    showSuccess(t("revoke.done"));
    // The revoked certificate's line (in the history now) takes the focus (useFocusWhenRevoked).
    focusWhenRevoked = certificate.id;
    await queryClient.invalidateQueries({ queryKey: learningKeys.progress(userId) });
  };
  return (
    <>
      <Button
        size="compact-xs"
        variant="subtle"
        color="red"
        leftSection={<IconCertificateOff size={14} aria-hidden />}
        onClick={() => setOpened(true)}
        aria-label={t("revoke.buttonLabel", { training, date })}
        data-testid="revoke-button"
      >
        {t("revoke.button")}
      </Button>
      <ConfirmDialog
        opened={opened}
        title={t("revoke.title")}
        message={t("revoke.intro", { training, date })}
        confirmLabel={t("revoke.confirm")}
        danger
        returnFocus={false}
        onConfirm={revoke}
        onClose={close}
      >
        <Stack gap="md" mb="lg">
          <Radio.Group
            label={t("revoke.reason")}
            value={reason}
            onChange={(v) => setReason(v as RevocationReason)}
            required
          >
            <Stack gap={6} mt={6}>
              {REVOCATION_REASONS.map((r) => (
                <Radio key={r} value={r} label={t(`revoke.reasons.${r}`)} />
              ))}
            </Stack>
          </Radio.Group>
          <Textarea
            label={t("revoke.note")}
            description={t("revoke.noteHint", { max: REVOKE_NOTE_MAX })}
            value={note}
            onChange={(e) => setNote(e.currentTarget.value)}
            maxLength={REVOKE_NOTE_MAX}
            autosize
            minRows={2}
            maxRows={5}
          />
        </Stack>
      </ConfirmDialog>
    </>
  );
}

import { QM_COOKIE, QM_COOKIE_CLOSE_DAYS, QM_COOKIE_NEVER_DAYS } from "@carecampus/contract";
import { Button, Group, Modal, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { settings } from "./settings";

const hasCookie = () => document.cookie.split("; ").some((c) => c.startsWith(`${QM_COOKIE}=`));

function setCookie(days: number) {
  const expires = new Date(Date.now() + days * 86_400_000).toUTCString();
  // biome-ignore lint/suspicious/noDocumentCookie: spec §2 names this cookie; the Cookie Store API is missing in some browsers staff use
  document.cookie = `${QM_COOKIE}=true; expires=${expires}; path=/; SameSite=Lax`;
}

/** Whether the QM notice is due now (the setting on and no cookie from an earlier answer). */
export const qmNoticeDue = () => settings["show-carely-qm-msg"] && !hasCookie();

/**
 * The QM notice: shows once; closing hides it for 1 day, 'don't show again' for 9999 (spec §2).
 * `onDone` is its closing (the parent unmounts it), so the next start-up dialog can open (never two at once).
 */
export function QmNotice({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const close = (days: number) => {
    setCookie(days);
    onDone();
  };
  return (
    <Modal opened onClose={() => close(QM_COOKIE_CLOSE_DAYS)} title={t("qm.title")} centered>
      <Text mb="lg">{t("qm.text")}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => close(QM_COOKIE_NEVER_DAYS)}>
          {t("qm.dontShowAgain")}
        </Button>
        <Button onClick={() => close(QM_COOKIE_CLOSE_DAYS)}>{t("common.close")}</Button>
      </Group>
    </Modal>
  );
}

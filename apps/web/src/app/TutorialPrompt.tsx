import { api, TUTORIAL_PROMPT_KEY } from "@carecampus/contract";
import { Button, Group, Modal, Text } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { call } from "../api/client";
import { sessionStore, useRequiredSession } from "../session/store";
import { focusPageHeading } from "./focus";

/**
 * Tutorial start-up prompt: yes opens /help, no asks again next session, don't show again
 * tells the server (DELETE /account/help_redirect_dialog).
 */
export function TutorialPrompt() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useRequiredSession();
  const [open, setOpen] = useState(
    () => user.show_help_redirect && sessionStorage.getItem(TUTORIAL_PROMPT_KEY) === null,
  );
  const dismiss = () => {
    sessionStorage.setItem(TUTORIAL_PROMPT_KEY, "asked");
    setOpen(false);
  };
  const never = async () => {
    dismiss();
    await call(api.helpRedirectHide);
    sessionStore.setUser({ ...user, show_help_redirect: false });
  };
  return (
    <Modal
      opened={open}
      onClose={dismiss}
      title={t("tutorial.title")}
      centered
      // It opened on its own: closed, the focus goes to the screen's title (not the page's top).
      returnFocus={false}
      onExitTransitionEnd={focusPageHeading}
    >
      <Text mb="lg">{t("tutorial.text")}</Text>
      <Group justify="flex-end" gap="xs">
        <Button variant="subtle" color="gray" onClick={() => void never()}>
          {t("tutorial.never")}
        </Button>
        <Button variant="default" onClick={dismiss}>
          {t("common.no")}
        </Button>
        <Button
          onClick={() => {
            dismiss();
            navigate("/help");
          }}
        >
          {t("common.yes")}
        </Button>
      </Group>
    </Modal>
  );
}

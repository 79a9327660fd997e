import { api, TUTORIAL_PROMPT_KEY } from "@carecampus/contract";
import { Button, Group, Modal, Text } from "@mantine/core";
import { useIsFetching } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { call } from "../api/client";
import { sessionStore, useRequiredSession } from "../session/store";
import { focusPageHeading } from "./focus";

/**
 * Tutorial start-up prompt: yes opens /help, no asks again next session, don't show again
 * tells the server (DELETE /account/help_redirect_dialog). It opens once the screen behind it has
 * its data and has been drawn: on a slow phone the start page shows first (issue 30), and the
 * dialog's own work does not delay it.
 */
export function TutorialPrompt() {
  const { user } = useRequiredSession();
  // Decided once: the user's setting, and whether this tab has asked already. Who does not get
  // the prompt does not follow the screen's requests either.
  const [due] = useState(() => user.show_help_redirect && sessionStorage.getItem(TUTORIAL_PROMPT_KEY) === null);
  return due ? <DuePrompt /> : null;
}

function DuePrompt() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { user } = useRequiredSession();
  const [state, setState] = useState<"waiting" | "open" | "answered">("waiting");
  const loading = useIsFetching() > 0;
  useEffect(() => {
    if (state !== "waiting" || loading) return;
    // The second frame from here comes after the screen's next paint.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => setState("open"));
    });
    return () => cancelAnimationFrame(frame);
  }, [state, loading]);
  const dismiss = () => {
    sessionStorage.setItem(TUTORIAL_PROMPT_KEY, "asked");
    setState("answered");
  };
  const never = async () => {
    dismiss();
    await call(api.helpRedirectHide);
    sessionStore.setUser({ ...user, show_help_redirect: false });
  };
  return (
    <Modal
      opened={state === "open"}
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

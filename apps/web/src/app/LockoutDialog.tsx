import { Button, Modal, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { sessionStore, useSessionState } from "../session/store";

/** Shown when the inactivity limit ended the session; its button leads to the login. */
export function LockoutDialog() {
  const { t } = useTranslation();
  const { lockedOut } = useSessionState();
  const navigate = useNavigate();
  const toLogin = () => {
    sessionStore.dismissLockout();
    navigate("/login", { replace: true, state: { from: window.location.pathname } });
  };
  return (
    <Modal
      opened={lockedOut}
      onClose={toLogin}
      title={t("lockout.title")}
      centered
      closeOnClickOutside={false}
      data-testid="lockout-dialog"
    >
      <Text mb="lg">{t("lockout.text")}</Text>
      <Button fullWidth onClick={toLogin}>
        {t("lockout.login")}
      </Button>
    </Modal>
  );
}

import { Button, Modal, Text } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { sessionStore, useSessionState } from "../session/store";

/** Shown when the inactivity limit ended the session; its button leads to the login. */
export default function LockoutDialog() {
  const { t } = useTranslation();
  const { lockedOut } = useSessionState();
  const navigate = useNavigate();
  const toLogin = () => {
    sessionStore.dismissLockout();
    // Usually the login is already behind the dialog (the ended session led there), holding the
    // page to return to; navigating again would replace that with /login itself.
    if (window.location.pathname !== "/login") {
      navigate("/login", { replace: true, state: { from: window.location.pathname } });
    }
  };
  return (
    <Modal
      opened={lockedOut}
      onClose={toLogin}
      title={t("lockout.title")}
      centered
      closeOnClickOutside={false}
      // Its button leads to the login, whose user name takes the focus: nothing to return it to.
      returnFocus={false}
      data-testid="lockout-dialog"
    >
      <Text mb="lg">{t("lockout.text")}</Text>
      <Button fullWidth onClick={toLogin}>
        {t("lockout.login")}
      </Button>
    </Modal>
  );
}

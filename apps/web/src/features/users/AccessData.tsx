import { formatDate } from "@carecampus/contract";
import { Button, Group, Modal, Paper, Stack, Text } from "@mantine/core";
import { IconPrinter } from "@tabler/icons-react";
import { useEffect, useId, useRef } from "react";
import { createPortal } from "react-dom";
import { useTranslation } from "react-i18next";
import { settings } from "../../app/settings";
import { CopyToClipboard } from "../../components/CopyToClipboard";
import classes from "./access-data.module.css";

/** What a new or reset user needs to log in for the first time. */
export interface AccessData {
  name: string;
  surname: string;
  login: string;
  password: string;
}

/** The address a user logs in at: this installation's own. */
const loginAddress = () => new URL("/login", window.location.origin).href;

/**
 * A generated password in the user form, in clear text with a copy button: the administrator
 * reads it out or copies it before saving (the field above shows it unmasked too).
 */
export function GeneratedPassword({ password }: { password: string }) {
  const { t } = useTranslation();
  const id = useId();
  const shown = useRef<HTMLElement>(null);
  const copyButton = useRef<HTMLButtonElement>(null);
  // Focus follows what changed: each new password's copy button, which the password describes.
  useEffect(() => {
    if (password) copyButton.current?.focus();
  }, [password]);
  return (
    <Paper withBorder p="sm" data-testid="generated-password" aria-labelledby={`${id}-title`} component="section">
      <Stack gap={6}>
        <Text size="sm" fw={600} id={`${id}-title`}>
          {t("editUser.generated.title")}
        </Text>
        <Text component="code" className={classes.password} id={`${id}-value`} ref={shown}>
          {password}
        </Text>
        <CopyToClipboard
          value={password}
          label={t("editUser.generated.copy")}
          source={shown}
          describedBy={`${id}-value`}
          buttonRef={copyButton}
          size="xs"
        />
        <Text size="sm">{t("editUser.generated.hint")}</Text>
      </Stack>
    </Paper>
  );
}

/** The access slip: rendered beside the app (not in the dialog), printed alone by the print stylesheet. */
function AccessSlip({ access }: { access: AccessData }) {
  const { t } = useTranslation();
  return createPortal(
    <div data-access-slip className={classes.slip} data-testid="access-slip">
      <h1>{t("editUser.slip.title")}</h1>
      <dl className={classes.details}>
        <dt>{t("editUser.slip.name")}</dt>
        <dd>
          {access.name} {access.surname}
        </dd>
        <dt>{t("editUser.slip.login")}</dt>
        <dd className={classes.login}>{access.login}</dd>
        <dt>{t("editUser.slip.password")}</dt>
        <dd className={classes.password}>{access.password}</dd>
        <dt>{t("editUser.slip.address")}</dt>
        <dd className={classes.login}>{loginAddress()}</dd>
      </dl>
      <p>{t("editUser.slip.instruction")}</p>
      <p>{t("editUser.slip.keepSafe")}</p>
      <p>{t("editUser.slip.issued", { date: formatDate(new Date(), settings["time-zone"]) })}</p>
    </div>,
    document.body,
  );
}

/**
 * After a save that set a generated password: the login data once more, in clear, with a copy
 * button and the printable access slip. The password is shown only here and now.
 */
export function AccessDataDialog({ access, onClose }: { access: AccessData | null; onClose: () => void }) {
  const { t } = useTranslation();
  const id = useId();
  const shown = useRef<HTMLElement>(null);
  const name = access ? `${access.name} ${access.surname}` : "";
  return (
    <Modal opened={access !== null} onClose={onClose} title={t("editUser.access.title", { name })} centered>
      {access && (
        <Stack gap="md" data-testid="access-data">
          <Text>{t("editUser.access.intro", { name })}</Text>
          <Paper withBorder p="sm">
            <dl className={classes.details}>
              <dt>
                <Text size="sm" span>
                  {t("editUser.slip.login")}
                </Text>
              </dt>
              <dd className={classes.login} data-testid="access-login">
                {access.login}
              </dd>
              <dt>
                <Text size="sm" span>
                  {t("editUser.slip.password")}
                </Text>
              </dt>
              <dd>
                <Text
                  component="code"
                  className={classes.password}
                  id={`${id}-value`}
                  ref={shown}
                  data-testid="access-password"
                >
                  {access.password}
                </Text>
              </dd>
            </dl>
          </Paper>
          <CopyToClipboard
            value={access.password}
            label={t("editUser.generated.copy")}
            source={shown}
            describedBy={`${id}-value`}
            autoFocus
          />
          <Group justify="space-between" gap="xs">
            <Button variant="default" leftSection={<IconPrinter size={16} />} onClick={() => window.print()}>
              {t("editUser.access.print")}
            </Button>
            <Button onClick={onClose}>{t("editUser.access.done")}</Button>
          </Group>
          <AccessSlip access={access} />
        </Stack>
      )}
    </Modal>
  );
}

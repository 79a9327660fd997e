import {
  api,
  ErrorCode,
  isValidEmail,
  isValidPassword,
  loginProblem,
  passwordProblems,
  type User,
} from "@carecampus/contract";
import { Button, Card, List, PasswordInput, SimpleGrid, Stack, TextInput, Title } from "@mantine/core";
import { type FormEvent, type ReactNode, useState } from "react";
import { useTranslation } from "react-i18next";
import { ApiError, call, showError, showSuccess } from "../../api/client";
import { PageHeader } from "../../components/PageHeader";
import { sessionStore, useRequiredSession } from "../../session/store";
import { CalendarFeedPanel } from "./CalendarFeedPanel";
import { PrivacyPanel } from "./PrivacyPanel";

function Panel({ title, onSubmit, children }: { title: string; onSubmit: () => Promise<void>; children: ReactNode }) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void onSubmit().catch(() => {
      // the client shows the error toast
    });
  };
  return (
    // noValidate: the fields say what is wrong in the user's language, not the browser's.
    <Card withBorder component="form" onSubmit={submit} aria-label={title} noValidate>
      <Title order={2} size="h4" mb="md">
        {title}
      </Title>
      <Stack gap="sm">{children}</Stack>
    </Card>
  );
}

function UsernamePanel({ user }: { user: User }) {
  const { t } = useTranslation();
  const [login, setLogin] = useState("");
  // The contract's login rule; an empty field only keeps save disabled, without an error.
  const problem = login === "" ? undefined : loginProblem(login);
  return (
    <Panel
      title={t("account.username.title")}
      onSubmit={async () => {
        const updated = await call(api.accountUpdate, {
          params: { id: user.id },
          body: { property: "login", value: { value: login } },
        });
        sessionStore.setUser(updated);
        setLogin("");
        showSuccess(t("success.accountChanged"));
      }}
    >
      <TextInput label={t("account.username.current")} value={user.login} readOnly variant="filled" />
      <TextInput
        label={t("account.username.new")}
        value={login}
        onChange={(e) => setLogin(e.currentTarget.value)}
        error={
          problem === "invisible"
            ? t("account.username.invisible")
            : problem
              ? t("account.username.noSpaces")
              : undefined
        }
        autoComplete="username"
        autoCapitalize="none"
      />
      <Button type="submit" disabled={login === "" || problem !== undefined}>
        {t("common.save")}
      </Button>
    </Panel>
  );
}

function PasswordPanel({ user }: { user: User }) {
  const { t } = useTranslation();
  const [old, setOld] = useState("");
  const [next, setNext] = useState("");
  const [repeat, setRepeat] = useState("");
  const [wrongOld, setWrongOld] = useState(false);
  const mismatch = repeat !== "" && next !== repeat;
  const problems = next === "" ? [] : passwordProblems(next);
  const ok = old !== "" && next !== "" && repeat !== "" && next === repeat && isValidPassword(next);
  return (
    <Panel
      title={t("account.password.title")}
      onSubmit={async () => {
        try {
          await call(api.accountUpdate, {
            params: { id: user.id },
            body: { property: "password", value: { password: old, new_password: next } },
            silent: true,
          });
        } catch (err) {
          // A wrong current password is said at its field; anything else as everywhere.
          if (err instanceof ApiError && err.code === ErrorCode.invalidCredentials) setWrongOld(true);
          else showError(err);
          throw err;
        }
        showSuccess(t("success.passwordChanged"));
        // The server ended every session of this user: log in again with the new password.
        sessionStore.clear();
      }}
    >
      <PasswordInput
        label={t("account.password.old")}
        value={old}
        onChange={(e) => {
          setOld(e.currentTarget.value);
          setWrongOld(false);
        }}
        autoComplete="current-password"
        error={wrongOld ? t("account.password.wrongOld") : undefined}
      />
      <PasswordInput
        label={t("account.password.new")}
        value={next}
        onChange={(e) => setNext(e.currentTarget.value)}
        autoComplete="new-password"
        error={problems.length > 0 ? t("account.password.rules") : undefined}
      />
      {problems.length > 0 && (
        <List size="xs" c="dimmed" spacing={2}>
          {problems.map((p) => (
            <List.Item key={p}>{t(`password.${p}`)}</List.Item>
          ))}
        </List>
      )}
      <PasswordInput
        label={t("account.password.repeat")}
        value={repeat}
        onChange={(e) => setRepeat(e.currentTarget.value)}
        autoComplete="new-password"
        error={mismatch ? t("account.password.mismatch") : undefined}
      />
      <Button type="submit" disabled={!ok}>
        {t("common.save")}
      </Button>
    </Panel>
  );
}

function EmailPanel({ user }: { user: User }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState("");
  const [confirm, setConfirm] = useState("");
  const [tried, setTried] = useState(false);
  const mismatch = confirm !== "" && email.trim() !== confirm.trim();
  const invalid = email.trim() !== "" && !isValidEmail(email);
  const ok = email.trim() !== "" && confirm.trim() !== "" && !mismatch;
  return (
    <Panel
      title={user.email ? t("account.email.change") : t("account.email.add")}
      onSubmit={async () => {
        setTried(true);
        if (invalid) return;
        const updated = await call(api.accountUpdate, {
          params: { id: user.id },
          body: { property: "email", value: { value: email.trim() } },
        });
        sessionStore.setUser(updated);
        setEmail("");
        setConfirm("");
        setTried(false);
        showSuccess(t("success.accountChanged"));
      }}
    >
      {user.email && <TextInput label={t("account.email.current")} value={user.email} readOnly variant="filled" />}
      <TextInput
        label={t("account.email.new")}
        type="email"
        value={email}
        onChange={(e) => setEmail(e.currentTarget.value)}
        autoComplete="email"
        error={tried && invalid ? t("account.email.invalid") : undefined}
      />
      <TextInput
        label={t("account.email.confirm")}
        type="email"
        value={confirm}
        onChange={(e) => setConfirm(e.currentTarget.value)}
        autoComplete="email"
        error={mismatch ? t("account.email.mismatch") : undefined}
      />
      <Button type="submit" disabled={!ok}>
        {t("common.save")}
      </Button>
    </Panel>
  );
}

export default function AccountPage() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  return (
    <>
      <PageHeader title={t("account.title")} />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
        <UsernamePanel user={user} />
        <PasswordPanel user={user} />
        <EmailPanel user={user} />
      </SimpleGrid>
      <CalendarFeedPanel />
      <PrivacyPanel />
    </>
  );
}

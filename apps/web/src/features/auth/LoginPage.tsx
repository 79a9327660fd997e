import { api } from "@carecampus/contract";
import {
  Alert,
  Anchor,
  Button,
  Center,
  Divider,
  Image,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, useLocation } from "react-router";
import { ApiError } from "../../api/call";
import { call, showSuccess } from "../../api/client";
import { useOnline } from "../../app/online";
import logo from "../../assets/logo.svg";
import { rememberSsoProvider } from "../../session/sso";
import { sessionStore, useSession, useSessionState } from "../../session/store";
import { SsoButtons, useSsoProviders } from "./SsoButtons";

// Without a connection only: what the login can still offer (a module of its own, not the login's code).
const OfflineLogin = lazy(() => import("./OfflineLogin"));

/** The refusals a single sign-on login comes back with (/login?sso_error=…, spec §8). */
const SSO_ERRORS = ["1112", "1113", "1114", "1115"];

export function LoginPage() {
  const { t } = useTranslation();
  const session = useSession();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from ?? "/";
  // No query cache on the login (it comes with the shell): the form's own submitting state is the pending one.
  const form = useForm({ mode: "controlled", initialValues: { login: "", password: "" } });
  const { login, password } = form.getValues();
  const busy = form.submitting;
  // The user name takes the focus on load, and when the lockout dialog over the login closes:
  // the form is ready to type into.
  const { lockedOut } = useSessionState();
  // Without a connection: the certificates kept on this device can be shown (issue 30).
  const online = useOnline();
  const [unreachable, setUnreachable] = useState(false);
  const loginInput = useRef<HTMLInputElement>(null);
  // Single sign-on (issue 32): the providers' buttons, and why a provider's login came back refused.
  const providers = useSsoProviders();
  const ssoError = new URLSearchParams(location.search).get("sso_error");
  useEffect(() => {
    if (!lockedOut) loginInput.current?.focus();
  }, [lockedOut]);

  // Already logged in: straight on to the page originally asked for.
  if (session) return <Navigate to={from.startsWith("/login") ? "/" : from} replace />;

  const canSubmit = login.trim() !== "" && password !== "" && !busy;

  const submit = form.onSubmit(async (v) => {
    if (v.login.trim() === "" || v.password === "") return;
    try {
      const res = await call(api.login, { body: { login: v.login.trim(), password: v.password } });
      sessionStore.login(res.token, res.user);
      rememberSsoProvider(null);
    } catch (err) {
      form.setFieldValue("password", "");
      if (err instanceof ApiError && err.status === 0) setUnreachable(true);
    }
  });

  const forgot = async () => {
    if (login.trim() === "") {
      form.setFieldError("login", t("login.provideUsername"));
      return;
    }
    form.clearFieldError("login");
    try {
      await call(api.forgotPassword, { body: { user_login: login.trim() } });
      showSuccess(t("success.adminInformed"));
    } catch {
      // the client shows the error toast
    }
  };

  return (
    <Center mih="100dvh" p="md" bg="var(--mantine-color-body)">
      <Paper component="form" onSubmit={submit} withBorder shadow="md" p={{ base: "lg", sm: "xl" }} w="100%" maw={420}>
        <Stack gap="md">
          <Center>
            <Image src={logo} h={52} w="auto" alt={t("login.logoAlt")} />
          </Center>
          <Text ta="center" c="dimmed" size="sm">
            {t("login.subtitle")}
          </Text>
          {ssoError && SSO_ERRORS.includes(ssoError) && (
            <Alert color="red" variant="light" role="alert">
              {t(`errors.${ssoError}`)}
            </Alert>
          )}
          {providers.length > 0 && (
            <>
              <SsoButtons providers={providers} redirect={from.startsWith("/login") ? "/" : from} />
              <Divider label={t("login.sso.or")} labelPosition="center" />
            </>
          )}
          <TextInput
            label={t("login.username")}
            {...form.getInputProps("login")}
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            ref={loginInput}
            size="md"
          />
          <PasswordInput
            label={t("login.password")}
            {...form.getInputProps("password")}
            autoComplete="current-password"
            size="md"
          />
          <Button type="submit" disabled={!canSubmit} loading={busy} size="md" fullWidth>
            {t("login.submit")}
          </Button>
          <Anchor component="button" type="button" size="sm" ta="center" onClick={() => void forgot()}>
            {t("login.forgot")}
          </Anchor>
          {(!online || unreachable) && (
            <Suspense fallback={null}>
              <OfflineLogin offline={!online} />
            </Suspense>
          )}
        </Stack>
      </Paper>
    </Center>
  );
}

import { api, type SsoProviderInfo } from "@carecampus/contract";
import { Button, Stack } from "@mantine/core";
import { IconBuildingCommunity } from "@tabler/icons-react";
import { useEffect, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import { call } from "../../api/client";
import { keepSsoNonce, newSsoNonce } from "../../session/sso";

/**
 * The single sign-on providers of the installation (issue 32), asked for once the login page
 * shows: the password form never waits for them, and a provider that does not answer comes back
 * as unavailable within a few seconds (the server's discovery time limit).
 */
export function useSsoProviders(): SsoProviderInfo[] {
  const [providers, setProviders] = useState<SsoProviderInfo[]>([]);
  useEffect(() => {
    let alive = true;
    call(api.ssoProviders, { silent: true })
      .then((res) => {
        if (alive) setProviders(res.providers);
      })
      .catch(() => {
        // no providers offered: the password form is the login
      });
    return () => {
      alive = false;
    };
  }, []);
  return providers;
}

/** A provider's name may be long: the label wraps instead of being cut (360 px). */
const WRAP = {
  root: { height: "auto", minHeight: "var(--button-height)", paddingBlock: "var(--mantine-spacing-xs)" },
  label: { whiteSpace: "normal", textAlign: "center", lineHeight: 1.3 },
} as const;

/** A button per provider ("Mit Microsoft anmelden"): a link to its login, or disabled and saying it cannot be reached. */
export function SsoButtons({ providers, redirect }: { providers: SsoProviderInfo[]; redirect: string }) {
  const { t } = useTranslation();
  // This login's own value: the session comes back with it, or is not taken (session/url-token.ts).
  const nonce = useMemo(newSsoNonce, []);
  const keep = () => keepSsoNonce(nonce);
  return (
    <Stack gap="xs" role="group" aria-label={t("login.sso.group")}>
      {providers.map((p) =>
        p.available ? (
          <Button
            key={p.id}
            component="a"
            href={`/api/auth/sso/${encodeURIComponent(p.id)}/login?${new URLSearchParams({ redirect, app_nonce: nonce })}`}
            onClick={keep}
            onAuxClick={keep}
            variant="default"
            size="md"
            fullWidth
            styles={WRAP}
            leftSection={<IconBuildingCommunity size={18} aria-hidden />}
          >
            {t("login.sso.with", { name: p.name })}
          </Button>
        ) : (
          <Button key={p.id} variant="default" size="md" fullWidth disabled styles={WRAP}>
            {t("login.sso.unavailable", { name: p.name })}
          </Button>
        ),
      )}
    </Stack>
  );
}

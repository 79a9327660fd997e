import { Button, Container, Group, Loader, Stack, Text, Title } from "@mantine/core";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useLocation } from "react-router";
import { OfflineNotice } from "../../app/OfflineNotice";
import { useOnline } from "../../app/online";
import type { OfflineEntry } from "../../offline/copy";
import { useKeptCopy } from "../../offline/useKeptCopy";
import { useSession } from "../../session/store";
import { KeptCopy } from "./MyProgress";

/**
 * /offline/certificates: "my certificates" without a connection and without a session (the token
 * ran out while the phone was offline) — the copy kept on this device at the last visit, for the
 * moment an inspector asks on the ward (issue 30). Only while the server cannot be reached; with
 * a connection, the login is the way in.
 */
export default function OfflineCertificatesPage() {
  const { t } = useTranslation();
  const session = useSession();
  const online = useOnline();
  const unreachable = (useLocation().state as OfflineEntry | null)?.unreachable === true;
  const usable = !session && (!online || unreachable);
  const kept = useKeptCopy(usable);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, []);
  if (session) return <Navigate to="/profile" replace />;
  if (!usable) return <Navigate to="/login" replace />;
  return (
    <Container size="md" py="md" px={{ base: "sm", sm: "md" }}>
      <Stack gap="md">
        <OfflineNotice />
        <Group justify="space-between" align="flex-start">
          <Title order={1} size="h2" ref={heading} tabIndex={-1}>
            {t("offline.title")}
          </Title>
          <Button component={Link} to="/login" variant="light">
            {t("offline.toLogin")}
          </Button>
        </Group>
        {kept === undefined ? (
          <Loader aria-label={t("common.loading")} />
        ) : kept === null ? (
          <Text>{t("offline.none")}</Text>
        ) : (
          <KeptCopy kept={kept} />
        )}
      </Stack>
    </Container>
  );
}

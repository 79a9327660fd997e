import { AppShell, Box, Container, Group, Image, SegmentedControl, UnstyledButton } from "@mantine/core";
import { ModalsProvider } from "@mantine/modals";
import { QueryClientProvider } from "@tanstack/react-query";
import { Suspense, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { Link, Outlet, useLocation, useNavigate } from "react-router";
import logo from "../assets/logo.svg";
import logoMark from "../assets/logo-mark.svg";
import { PageLoader } from "../components/PageLoader";
import { HelpRequestsIndicator } from "../features/help/HelpRequestsIndicator";
import { NotificationBell } from "../features/notifications/NotificationBell";
import { OfflineNotice } from "./OfflineNotice";
import { QmNotice, qmNoticeDue } from "./QmNotice";
import { createQueryClient } from "./query-client";
import classes from "./Shell.module.css";
import { TopicProgressRing } from "./TopicProgressRing";
import { TutorialPrompt } from "./TutorialPrompt";
import { UserMenu } from "./UserMenu";
import { VersionLabel } from "./VersionLabel";

/** Switches between the trainings (/) and the wiki (/wiki). */
function WikiSwitch() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const value = location.pathname.startsWith("/wiki") ? "wiki" : "trainings";
  return (
    <SegmentedControl
      size="xs"
      value={value}
      onChange={(v) => navigate(v === "wiki" ? "/wiki" : "/")}
      data={[
        { value: "trainings", label: t("nav.trainings") },
        { value: "wiki", label: t("nav.wiki") },
      ]}
      aria-label={t("nav.switch")}
    />
  );
}

/**
 * The logged-in screens with what only they need: the query cache and the modals manager (a
 * chunk of its own, loaded after the login; routes.tsx).
 */
export function Shell() {
  // Cached data belongs to one user: this shell's own cache, dropped when the shell goes (the
  // session ended, or another user's began: guards.tsx).
  const [queryClient] = useState(createQueryClient);
  useEffect(() => () => queryClient.clear(), [queryClient]);
  return (
    <QueryClientProvider client={queryClient}>
      <ModalsProvider>
        <ShellLayout />
      </ModalsProvider>
    </QueryClientProvider>
  );
}

function ShellLayout() {
  const { t } = useTranslation();
  // The screen shown, named on the main landmark: it changes in the same render as the screen,
  // so whoever waits for it (a browser test navigating inside the app) never sees the last one.
  const { pathname } = useLocation();
  return (
    <AppShell header={{ height: 60 }} padding={{ base: "sm", sm: "md" }}>
      <AppShell.Header>
        <Group h="100%" px={{ base: "xs", sm: "md" }} justify="space-between" wrap="nowrap" gap="xs">
          <UnstyledButton component={Link} to="/" aria-label={t("nav.home")}>
            <Image src={logo} h={34} w="auto" alt="CareCampus" visibleFrom="sm" />
            <Image src={logoMark} h={34} w={34} alt="CareCampus" hiddenFrom="sm" />
          </UnstyledButton>
          <Group gap="xs" wrap="nowrap">
            <TopicProgressRing />
            <WikiSwitch />
            <HelpRequestsIndicator />
            <NotificationBell />
            <UserMenu />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Main data-path={pathname}>
        <Container size="lg" px={0} pb={{ base: 0, sm: 56 }}>
          <OfflineNotice />
          <Suspense fallback={<PageLoader />}>
            <Outlet />
          </Suspense>
        </Container>
        <Box className={classes.version}>
          <VersionLabel />
        </Box>
      </AppShell.Main>
      <StartupDialogs />
    </AppShell>
  );
}

/** The dialogs of a session's start, one at a time: the QM notice first, then the tutorial prompt. */
function StartupDialogs() {
  const [qmPending, setQmPending] = useState(qmNoticeDue);
  return qmPending ? <QmNotice onDone={() => setQmPending(false)} /> : <TutorialPrompt />;
}

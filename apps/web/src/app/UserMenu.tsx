import { can, mayOpenRoute, type RouteName } from "@carecampus/contract";
import { Menu, Text, UnstyledButton } from "@mantine/core";
import {
  IconCalendar,
  IconCertificate,
  IconChartBar,
  IconHelp,
  IconLifebuoy,
  IconListDetails,
  IconLogout,
  IconMessageQuestion,
  IconSchool,
  IconSettings,
  IconUser,
  IconUserPlus,
  IconUsers,
  IconWriting,
} from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { UserAvatar } from "../components/UserAvatar";
import { forgetCopy } from "../offline/copy";
import { takeSsoProvider } from "../session/sso";
import { sessionStore, useRequiredSession } from "../session/store";
import { settings } from "./settings";

interface Entry {
  route: RouteName;
  to: string;
  label: string;
  icon: ReactNode;
}

export function UserMenu() {
  // Logging out ends the session; where the installation names a portal (alternative-callback-url),
  // the user goes back there, else to the login page.
  // The device-kept copy of "my certificates" goes with it (offline/copy.ts).
  // A session begun by single sign-on also ends the provider's (its end-session address, then
  // back to the login page).
  const logout = () => {
    const forgotten = forgetCopy();
    const sso = takeSsoProvider();
    sessionStore.clear();
    const portal = sso ? `/api/auth/sso/${sso}/logout` : settings["alternative-callback-url"];
    if (portal) void forgotten.finally(() => window.location.assign(portal));
  };
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const pages: Entry[] = [
    { route: "myQuestions", to: "/my-questions", label: t("nav.myQuestions"), icon: <IconMessageQuestion size={16} /> },
    { route: "progress", to: "/progress", label: t("nav.progress"), icon: <IconChartBar size={16} /> },
    { route: "users", to: "/users", label: t("nav.users"), icon: <IconUsers size={16} /> },
    { route: "calendar", to: "/calendar", label: t("nav.calendar"), icon: <IconCalendar size={16} /> },
    { route: "helpRequests", to: "/helprequests", label: t("nav.helpRequests"), icon: <IconLifebuoy size={16} /> },
    ...(settings["show-external-trainings"]
      ? [
          {
            route: "partnerCourses" as const,
            to: "/partner-courses",
            label: t("nav.partnerCourses"),
            icon: <IconSchool size={16} />,
          },
        ]
      : []),
    { route: "authoring", to: "/authoring", label: t("nav.authoring"), icon: <IconWriting size={16} /> },
    { route: "audit", to: "/audit", label: t("audit.nav"), icon: <IconListDetails size={16} /> },
    { route: "evidence", to: "/evidence", label: t("evidence.nav"), icon: <IconCertificate size={16} /> },
  ];
  const allowed = pages.filter((p) => mayOpenRoute(user.roles, p.route));
  return (
    // Without Mantine's initial focus placeholder (a presentational element with a tabindex, which
    // a menu may not hold): the focus goes to the first item when the menu opens.
    <Menu position="bottom-end" width={230} shadow="md" withInitialFocusPlaceholder={false}>
      <Menu.Target>
        <UnstyledButton aria-label={t("nav.userMenu")} data-testid="user-menu">
          <UserAvatar avatar={user.avatar} size={38} alt="" />
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          {/* Not paragraphs: a menu holds menu items, and generic text beside them. */}
          <Text component="div" size="sm" fw={600} c="var(--mantine-color-text)" truncate>
            {user.name} {user.surname}
          </Text>
          <Text component="div" size="xs" c="dimmed" truncate>
            {user.roles.map((r) => t(`roles.${r}`)).join(", ")}
          </Text>
        </Menu.Label>
        <Menu.Item component={Link} to="/profile" leftSection={<IconUser size={16} />}>
          {t("nav.profile")}
        </Menu.Item>
        <Menu.Item component={Link} to="/account" leftSection={<IconSettings size={16} />}>
          {t("nav.account")}
        </Menu.Item>
        {can(user.roles, "users.create") && (
          <Menu.Item component={Link} to="/edituser" leftSection={<IconUserPlus size={16} />}>
            {t("nav.newProfile")}
          </Menu.Item>
        )}
        <Menu.Item component={Link} to="/help" leftSection={<IconHelp size={16} />}>
          {t("nav.help")}
        </Menu.Item>
        {allowed.length > 0 && <Menu.Divider />}
        {allowed.map((p) => (
          <Menu.Item key={p.to} component={Link} to={p.to} leftSection={p.icon}>
            {p.label}
          </Menu.Item>
        ))}
        <Menu.Divider />
        <Menu.Item color="var(--cc-danger-text)" leftSection={<IconLogout size={16} />} onClick={logout}>
          {t("nav.logout")}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

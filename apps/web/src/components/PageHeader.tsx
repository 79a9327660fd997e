import { ActionIcon, Group, Title, Tooltip } from "@mantine/core";
import { IconArrowLeft } from "@tabler/icons-react";
import type { ReactNode, Ref } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/**
 * Every page header carries a 'back to home' button (spec §2). With `headingRef` the heading can
 * take the focus (tabIndex -1), for pages that move focus to their title after navigating.
 */
export function PageHeader({
  title,
  children,
  headingRef,
}: {
  title: string;
  children?: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mb="lg" wrap="nowrap" align="center">
      <Group gap="sm" wrap="nowrap">
        <Tooltip label={t("nav.backHome")}>
          <ActionIcon component={Link} to="/" variant="light" size="lg" aria-label={t("nav.backHome")}>
            <IconArrowLeft size={20} />
          </ActionIcon>
        </Tooltip>
        <Title
          order={1}
          fz={{ base: "h3", sm: "h2" }}
          ref={headingRef}
          tabIndex={headingRef ? -1 : undefined}
          style={headingRef ? { outline: "none" } : undefined}
        >
          {title}
        </Title>
      </Group>
      {children}
    </Group>
  );
}

import { ActionIcon, Box, Group, Title, Tooltip } from "@mantine/core";
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
  title: ReactNode;
  children?: ReactNode;
  headingRef?: Ref<HTMLHeadingElement>;
}) {
  const { t } = useTranslation();
  return (
    // On a phone the actions move below a title they do not leave room for, rather than widen the page.
    <Group justify="space-between" mb="lg" wrap="wrap" align="center" gap="xs">
      <Group gap="sm" wrap="nowrap" miw={0}>
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
          miw={0}
          style={{ overflowWrap: "break-word", ...(headingRef ? { outline: "none" } : {}) }}
        >
          {title}
        </Title>
      </Group>
      {children && <Box ml="auto">{children}</Box>}
    </Group>
  );
}

import { ActionIcon, Group, Title, Tooltip } from "@mantine/core";
import { IconArrowLeft } from "@tabler/icons-react";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** Every page header carries a 'back to home' button (spec §2). */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Group justify="space-between" mb="lg" wrap="nowrap" align="center">
      <Group gap="sm" wrap="nowrap">
        <Tooltip label={t("nav.backHome")}>
          <ActionIcon component={Link} to="/" variant="light" size="lg" aria-label={t("nav.backHome")}>
            <IconArrowLeft size={20} />
          </ActionIcon>
        </Tooltip>
        <Title order={1} fz={{ base: "h3", sm: "h2" }}>
          {title}
        </Title>
      </Group>
      {children}
    </Group>
  );
}

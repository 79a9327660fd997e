import { ActionIcon, Button, Tooltip } from "@mantine/core";
import { IconFileImport } from "@tabler/icons-react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";

// The import screen and its CSV libraries load only when superchris opens it.
const UserImport = lazy(() => import("./UserImport"));

/** Opens the CSV user import (superchris only; the caller checks the role). */
export function UserImportButton() {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  const [used, setUsed] = useState(false);
  const open = () => {
    setUsed(true);
    setOpened(true);
  };
  return (
    <>
      <Button variant="light" leftSection={<IconFileImport size={16} />} onClick={open} visibleFrom="sm">
        {t("usersImport.open")}
      </Button>
      <Tooltip label={t("usersImport.open")}>
        <ActionIcon variant="light" size="lg" onClick={open} hiddenFrom="sm" aria-label={t("usersImport.open")}>
          <IconFileImport size={20} />
        </ActionIcon>
      </Tooltip>
      {used && (
        <Suspense fallback={null}>
          <UserImport opened={opened} onClose={() => setOpened(false)} />
        </Suspense>
      )}
    </>
  );
}

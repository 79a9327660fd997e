import { type AdminUser, api, can } from "@carecampus/contract";
import { Button } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { authedUrl, freshLink } from "../../api/client";
import { useRequiredSession } from "../../session/store";

/** A person's data export (GDPR Art. 15) for staff who may export them: the same ZIP as on /account. */
export function UserDataDownload({ user }: { user: AdminUser }) {
  const { t } = useTranslation();
  const { user: me } = useRequiredSession();
  if (!can(me.roles, "user.export")) return null;
  const link = freshLink(() => authedUrl(api.adminUserExport, { params: { id: user.id } }));
  return (
    <Button
      component="a"
      {...link}
      download
      size="xs"
      variant="light"
      leftSection={<IconDownload size={14} aria-hidden />}
      aria-label={t("privacy.staffDownloadLabel", { name: `${user.name} ${user.surname}`.trim() || user.login })}
      data-testid="user-data-download"
    >
      {t("privacy.staffDownload")}
    </Button>
  );
}

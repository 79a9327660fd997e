import { api, can, formatDate, type ListedUser, type Role, TRUNCATE_CERTIFICATE, truncate } from "@carecampus/contract";
import { Accordion, Alert, Badge, Button, Group, Loader, Stack, Text } from "@mantine/core";
import { IconRestore } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { CertificateHistory } from "../../components/CertificateHistory";
import { ConfirmDialog } from "../../components/ConfirmDialog";
import { useUserProgress } from "../../queries/learning";
import { useFormerUsers, userKeys } from "./queries";
import { UserDataDownload } from "./UserDataDownload";
import { UserIdentity } from "./UserIdentity";

/** Every certificate a former employee held, per training, each with its dates and PDF. */
function FormerCertificates({ userId }: { userId: number }) {
  const { t } = useTranslation();
  const { data, isPending } = useUserProgress(userId);
  if (isPending) return <Loader size="sm" />;
  const held = (data?.training_progress ?? []).filter((tp) => tp.certificate || tp.earlier_certificates.length > 0);
  if (held.length === 0) return <Text size="sm">{t("former.noCertificates")}</Text>;
  return (
    <Stack gap={4} data-testid="former-certificates">
      <Text size="sm" fw={600}>
        {t("former.certificates")}
      </Text>
      {held.map((tp) => (
        <div key={tp.id}>
          <Text size="sm" title={tp.name}>
            {truncate(tp.name, TRUNCATE_CERTIFICATE)}
          </Text>
          <CertificateHistory
            certificates={[...(tp.certificate ? [tp.certificate] : []), ...tp.earlier_certificates]}
            lineKey="former.certificateLine"
          />
        </div>
      ))}
    </Stack>
  );
}

function FormerCard({
  user,
  canRestore,
  onRestore,
}: {
  user: ListedUser;
  canRestore: boolean;
  onRestore: (u: ListedUser) => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const left = user.left_at ? formatDate(user.left_at, settings["time-zone"]) : "";
  return (
    <Accordion.Item value={String(user.id)} data-testid="former-card">
      <Accordion.Control onClick={() => setOpen(true)}>
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>
            {user.name} {user.surname}
          </Text>
          <Badge size="sm" variant="outline" color="gray">
            {t("former.badge")}
          </Badge>
        </Group>
        <UserIdentity user={user}>
          <Text size="sm" data-testid="former-left">
            {t("former.leftOn", { date: left })}
          </Text>
        </UserIdentity>
      </Accordion.Control>
      <Accordion.Panel>
        <Group mb="md" gap="xs">
          {canRestore && (
            <Button size="xs" variant="light" leftSection={<IconRestore size={14} />} onClick={() => onRestore(user)}>
              {t("former.restore")}
            </Button>
          )}
          {/* A former employee's data export (GDPR Art. 15): the same ZIP as for a current one. */}
          <UserDataDownload user={user} />
        </Group>
        {open && <FormerCertificates userId={user.id} />}
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/**
 * The former employees (issue 28) within the viewer's scope, searched like the current ones:
 * the day each left, their certificates with downloads, and a restore for one removed by mistake.
 * `onChanged` moves the focus back to the page once a restored person has left this list.
 */
export function FormerUsers({ query, roles, onChanged }: { query: string; roles: Role[]; onChanged: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { data, isPending } = useFormerUsers(query, true);
  const [toRestore, setToRestore] = useState<ListedUser | null>(null);
  const restored = useRef(false);
  const restore = async () => {
    if (!toRestore) return;
    await call(api.adminUserRestore, { params: { id: toRestore.id } });
    restored.current = true;
    showSuccess(t("former.restored"));
    await queryClient.invalidateQueries({ queryKey: userKeys.all });
  };
  if (isPending) return <Loader size="sm" />;
  return (
    <>
      {data && data.users.length === 0 && <Alert color="gray">{query ? t("users.noResults") : t("former.none")}</Alert>}
      {data && data.users.length > 0 && (
        <Accordion variant="separated" multiple>
          {data.users.map((u) => (
            <FormerCard key={u.id} user={u} canRestore={can(roles, "user.restore")} onRestore={setToRestore} />
          ))}
        </Accordion>
      )}
      <ConfirmDialog
        opened={toRestore !== null}
        title={t("former.restoreTitle")}
        message={t("former.restoreConfirm", { name: toRestore ? `${toRestore.name} ${toRestore.surname}` : "" })}
        confirmLabel={t("former.restore")}
        onConfirm={restore}
        onClose={() => {
          setToRestore(null);
          if (restored.current) {
            restored.current = false;
            onChanged();
          }
        }}
      />
    </>
  );
}

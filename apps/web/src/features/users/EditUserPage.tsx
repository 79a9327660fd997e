import type { Catalogue } from "@carecampus/contract";
import { Button, Card, Group, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { TrainingSelection } from "../../components/TrainingSelection";
import { useCatalogue } from "../../queries/admin";
import { useRequiredSession } from "../../session/store";
import { AccessDataDialog } from "./AccessData";
import { QualificationsSection, RolesSection } from "./AssignmentSections";
import { PersonSection } from "./PersonSection";
import { useAdminUser, useTrainingMatrix, useUserExtras } from "./queries";
import { initialUserValues, type UserFormValues, useUserForm } from "./useUserForm";

/** Create (/edituser) or edit (/edituser/{id}) a user: loads what the form starts from. */
export default function EditUserPage() {
  const params = useParams();
  const editId = params.userId === undefined ? undefined : Number(params.userId);
  const { user: me } = useRequiredSession();
  const existing = useAdminUser(editId);
  const catalogue = useCatalogue();
  const matrix = useTrainingMatrix(editId);
  const userExtras = useUserExtras(editId);

  if (editId !== undefined && (Number.isNaN(editId) || existing.isError)) return <NotFoundPage />;
  const loaded = editId === undefined || (existing.data && matrix.data && userExtras.data);
  if (!catalogue.data || !loaded) return <Skeleton h={400} />;

  const initial = initialUserValues(
    me,
    catalogue.data,
    existing.data && { user: existing.data, matrix: matrix.data, extras: userExtras.data },
  );
  return <UserForm key={editId ?? "new"} editId={editId} initial={initial} catalogue={catalogue.data} />;
}

interface UserFormProps {
  editId: number | undefined;
  initial: UserFormValues;
  catalogue: Catalogue;
}

/** Every rule of spec §5 in the form (the contract's userFormProblems); one atomic save. */
function UserForm({ editId, initial, catalogue }: UserFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const state = useUserForm(editId, initial);
  const { form, values } = state;

  return (
    <>
      <PageHeader title={editId === undefined ? t("editUser.createTitle") : t("editUser.editTitle")} />
      <form onSubmit={state.submit} noValidate>
        <Stack gap="lg">
          <PersonSection form={form} values={values} creating={state.creating} password={state.password} />
          <RolesSection form={form} values={values} roles={state.roles} facilityRule={state.facilityRule} />
          <QualificationsSection form={form} values={values} facilityRule={state.facilityRule} />
          <Card withBorder>
            <Title order={2} size="h4" mb={4}>
              {t("editUser.trainingsTitle")}
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              {t("editUser.trainingsHint")}
            </Text>
            <TrainingSelection
              catalogue={catalogue}
              selected={new Set(values.trainings)}
              onChange={(next) => form.setFieldValue("trainings", [...next])}
            />
          </Card>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate("/users")}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" disabled={!state.canSave} loading={state.saving}>
              {t("common.save")}
            </Button>
          </Group>
        </Stack>
      </form>
      <AccessDataDialog access={state.access} onClose={() => navigate("/users")} />
    </>
  );
}

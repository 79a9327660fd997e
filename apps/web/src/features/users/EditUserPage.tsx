import {
  type AdditionalQualification,
  type AdminUser,
  type Catalogue,
  facilityRequirement,
  generatePassword,
  grantableRoles,
  type NamedItem,
  normaliseRoles,
  passwordProblems,
  type Role,
  type Salutation,
  seesAllFacilities,
  type TrainingMatrix,
  toggleRole,
} from "@carecampus/contract";
import {
  Button,
  Card,
  Chip,
  Group,
  List,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconWand } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { api, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { TrainingSelection } from "../../components/TrainingSelection";
import { useCatalogue, useFacilities } from "../../queries/admin";
import { useRequiredSession } from "../../session/store";
import {
  useActivities,
  useAdminUser,
  useFacilityExtras,
  useQualifications,
  userKeys,
  useTrainingMatrix,
  useUserExtras,
} from "./queries";

interface FormState {
  salutation: Salutation;
  name: string;
  surname: string;
  login: string;
  email: string;
  password: string;
  roles: Role[];
  facility: number | null;
  activities: string[];
  qualifications: string[];
}

const EMPTY: FormState = {
  salutation: "-",
  name: "",
  surname: "",
  login: "",
  email: "",
  password: "",
  roles: ["employee"],
  facility: null,
  activities: [],
  qualifications: [],
};

const fromUser = (u: AdminUser): FormState => ({
  salutation: u.salutation,
  name: u.name,
  surname: u.surname,
  login: u.login,
  email: u.email ?? "",
  password: "",
  roles: u.roles,
  facility: u.facility?.id ?? null,
  activities: u.activities.map(String),
  qualifications: u.qualifications.map(String),
});

const allTrainings = (catalogue: Catalogue) => new Set(catalogue.flatMap((tp) => tp.trainings.map((t) => t.id)));
const matrixIds = (m: TrainingMatrix) => new Set(m.topics.flatMap((tp) => tp.trainings.map((t) => t.training_id)));

/** The matrix body of POST /filter/admin/trainingsmatrix for the chosen trainings. */
function matrixBody(userId: number, catalogue: Catalogue, chosen: ReadonlySet<number>) {
  return {
    user_id: userId,
    topics: catalogue
      .map((tp) => ({
        topic_id: tp.id,
        trainings: tp.trainings.filter((t) => chosen.has(t.id)).map((t) => ({ training_id: t.id })),
      }))
      .filter((tp) => tp.trainings.length > 0),
  };
}

const options = (items: NamedItem[] | undefined) => (items ?? []).map((i) => ({ value: String(i.id), label: i.name }));
const random = (n: number) => (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % n;

/** Create (/edituser) or edit (/edituser/{id}) a user, with every rule of spec §5 in the form. */
export default function EditUserPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user: me } = useRequiredSession();
  const params = useParams();
  const editId = params.userId === undefined ? undefined : Number(params.userId);
  const existing = useAdminUser(editId);
  const allFacilities = seesAllFacilities(me.roles);
  const facilities = useFacilities(true);
  const qualifications = useQualifications();
  const activities = useActivities();
  const [form, setForm] = useState<FormState>(EMPTY);
  const [newFacility, setNewFacility] = useState("");
  const [busy, setBusy] = useState(false);
  const catalogue = useCatalogue();
  const matrix = useTrainingMatrix(editId);
  // null until known; only a touched selection is saved, so untouched users keep "every training".
  const [trainings, setTrainings] = useState<Set<number> | null>(null);
  const [trainingsTouched, setTrainingsTouched] = useState(false);
  const facilityExtras = useFacilityExtras(form.facility);
  const userExtras = useUserExtras(editId);
  const [extras, setExtras] = useState<string[] | null>(null);
  const [newExtra, setNewExtra] = useState("");

  useEffect(() => {
    if (trainings !== null || !catalogue.data) return;
    if (editId === undefined) setTrainings(allTrainings(catalogue.data));
    else if (matrix.data) setTrainings(matrixIds(matrix.data));
  }, [trainings, catalogue.data, matrix.data, editId]);
  useEffect(() => {
    if (extras !== null) return;
    if (editId === undefined) setExtras([]);
    else if (userExtras.data) setExtras(userExtras.data.map((q) => String(q.id)));
  }, [extras, editId, userExtras.data]);

  useEffect(() => {
    if (existing.data) setForm(fromUser(existing.data));
  }, [existing.data]);
  useEffect(() => {
    // Administrators create users of their own facility.
    if (!allFacilities && editId === undefined && me.facility)
      setForm((f) => ({ ...f, facility: me.facility?.id ?? null }));
  }, [allFacilities, editId, me.facility]);

  if (editId !== undefined && (Number.isNaN(editId) || existing.isError)) return <NotFoundPage />;
  if (editId !== undefined && existing.isPending) return <Skeleton h={400} />;

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const grantable = grantableRoles(me.roles);
  const roles = normaliseRoles(form.roles);
  const facilityRule = facilityRequirement(roles);
  const loginHasSpace = /\s/.test(form.login);
  const problems = form.password === "" ? [] : passwordProblems(form.password);
  const salutationMissing = settings["show-salutation"] && form.salutation === "-";
  const canSave =
    !busy &&
    form.name.trim() !== "" &&
    form.surname.trim() !== "" &&
    form.login.trim() !== "" &&
    !loginHasSpace &&
    !salutationMissing &&
    problems.length === 0 &&
    (editId !== undefined || form.password !== "") &&
    facilityRule !== "conflict" &&
    (facilityRule !== "required" || form.facility !== null);

  const addFacility = async () => {
    const created = await api<NamedItem>("/auth/admin/facilities", {
      method: "POST",
      body: { name: newFacility.trim() },
    });
    await queryClient.invalidateQueries({ queryKey: userKeys.facilities });
    set("facility", created.id);
    setNewFacility("");
    showSuccess(t("success.facilityAdded"));
  };

  const addExtra = async () => {
    if (form.facility === null) return;
    const created = await api<AdditionalQualification>("/external", {
      method: "POST",
      body: { name: newExtra.trim(), facility: form.facility },
    });
    await queryClient.invalidateQueries({ queryKey: ["users", "extras"] });
    setExtras((x) => [...(x ?? []), String(created.id)]);
    setNewExtra("");
    showSuccess(t("success.qualificationAdded"));
  };

  /** After the user itself: the training matrix and additional qualifications, when changed. */
  const saveAssignments = async (userId: number, facility: number | null) => {
    if (trainingsTouched && trainings && catalogue.data) {
      await api("/filter/admin/trainingsmatrix", {
        method: "POST",
        body: matrixBody(userId, catalogue.data, trainings),
      });
    }
    const chosen = facility === null ? [] : (extras ?? []).map(Number);
    const before = (userExtras.data ?? []).map((q) => q.id);
    if (chosen.length !== before.length || chosen.some((id) => !before.includes(id))) {
      await api(`/external/user/${userId}`, { method: "PUT", body: { externalIDs: chosen } });
    }
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!canSave) return;
    setBusy(true);
    const body = {
      name: form.name,
      surname: form.surname,
      login: form.login.trim(),
      salutation: form.salutation,
      email: form.email.trim() || null,
      roles,
      facility: facilityRule === "required" ? form.facility : null,
      activities: form.activities.map(Number),
      qualifications: form.qualifications.map(Number),
      ...(form.password ? { password: form.password } : {}),
    };
    try {
      const saved =
        editId === undefined
          ? await api<AdminUser>("/auth/admin/users", { method: "POST", body })
          : await api<AdminUser>(`/auth/admin/users/${editId}`, { method: "PATCH", body });
      await saveAssignments(saved.id, body.facility);
      showSuccess(t(editId === undefined ? "success.SUC_USER_CREATED" : "success.SUC_USER_EDITED"));
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      navigate("/users");
    } catch {
      // the client shows the error toast
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title={editId === undefined ? t("editUser.createTitle") : t("editUser.editTitle")} />
      <form onSubmit={submit}>
        <Stack gap="lg">
          <Card withBorder>
            <Title order={2} size="h4" mb="md">
              {t("editUser.person")}
            </Title>
            <Stack gap="sm">
              {settings["show-salutation"] && (
                <div>
                  <Text size="sm" fw={500} mb={4}>
                    {t("editUser.salutation")}
                  </Text>
                  <SegmentedControl
                    value={form.salutation}
                    onChange={(v) => set("salutation", v as Salutation)}
                    data={[
                      { value: "Ms", label: t("editUser.ms") },
                      { value: "Mr", label: t("editUser.mr") },
                      { value: "-", label: "–" },
                    ]}
                  />
                </div>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label={t("editUser.name")}
                  value={form.name}
                  onChange={(e) => set("name", e.currentTarget.value)}
                  required
                />
                <TextInput
                  label={t("editUser.surname")}
                  value={form.surname}
                  onChange={(e) => set("surname", e.currentTarget.value)}
                  required
                />
                <TextInput
                  label={t("editUser.login")}
                  value={form.login}
                  onChange={(e) => set("login", e.currentTarget.value)}
                  error={loginHasSpace ? t("account.username.noSpaces") : undefined}
                  autoCapitalize="none"
                  required
                />
                <TextInput
                  label={t("editUser.email")}
                  type="email"
                  value={form.email}
                  onChange={(e) => set("email", e.currentTarget.value)}
                />
              </SimpleGrid>
              <Group align="flex-end" gap="xs" wrap="nowrap">
                <PasswordInput
                  style={{ flex: 1 }}
                  label={editId === undefined ? t("editUser.password") : t("editUser.newPassword")}
                  description={editId === undefined ? undefined : t("editUser.passwordKeep")}
                  value={form.password}
                  onChange={(e) => set("password", e.currentTarget.value)}
                  autoComplete="new-password"
                  required={editId === undefined}
                />
                <Button
                  variant="light"
                  leftSection={<IconWand size={16} />}
                  onClick={() => set("password", generatePassword(random))}
                >
                  {t("editUser.generate")}
                </Button>
              </Group>
              {problems.length > 0 && (
                <List size="xs" c="dimmed" spacing={2}>
                  {problems.map((p) => (
                    <List.Item key={p}>{t(`password.${p}`)}</List.Item>
                  ))}
                </List>
              )}
            </Stack>
          </Card>

          <Card withBorder>
            <Title order={2} size="h4" mb="md">
              {t("editUser.rolesTitle")}
            </Title>
            <Group gap="xs" mb="md">
              {grantable.map((r) => (
                <Chip key={r} checked={roles.includes(r)} onChange={() => set("roles", toggleRole(roles, r))}>
                  {t(`roles.${r}`)}
                </Chip>
              ))}
            </Group>
            {facilityRule === "conflict" && (
              <Text c="red" size="sm">
                {t("editUser.roleConflict")}
              </Text>
            )}
            {facilityRule === "required" &&
              (allFacilities ? (
                <Stack gap="xs">
                  <Select
                    label={t("editUser.facility")}
                    data={options(facilities.data)}
                    value={form.facility === null ? null : String(form.facility)}
                    onChange={(v) => {
                      set("facility", v === null ? null : Number(v));
                      // Additional qualifications belong to a facility.
                      setExtras([]);
                    }}
                    searchable
                    required
                    maw={420}
                  />
                  <Group align="flex-end" gap="xs">
                    <TextInput
                      label={t("editUser.newFacility")}
                      value={newFacility}
                      onChange={(e) => setNewFacility(e.currentTarget.value)}
                      maw={320}
                    />
                    <Button
                      variant="light"
                      disabled={newFacility.trim() === ""}
                      onClick={() => void addFacility().catch(() => {})}
                    >
                      {t("editUser.addFacility")}
                    </Button>
                  </Group>
                </Stack>
              ) : (
                <Text size="sm">
                  <b>{t("editUser.facility")}:</b> {me.facility?.name ?? "–"}
                </Text>
              ))}
          </Card>

          <Card withBorder>
            <Title order={2} size="h4" mb="md">
              {t("editUser.qualificationsTitle")}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <MultiSelect
                label={t("editUser.activities")}
                data={options(activities.data)}
                value={form.activities}
                onChange={(v) => set("activities", v)}
                searchable
                clearable
              />
              <MultiSelect
                label={t("editUser.qualifications")}
                data={options(qualifications.data)}
                value={form.qualifications}
                onChange={(v) => set("qualifications", v)}
                searchable
                clearable
              />
            </SimpleGrid>
            {facilityRule === "required" && form.facility !== null && (
              <Stack gap="xs" mt="md">
                <MultiSelect
                  label={t("editUser.additionalQualifications")}
                  description={t("editUser.additionalQualificationsHint")}
                  data={(facilityExtras.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))}
                  value={extras ?? []}
                  onChange={setExtras}
                  searchable
                  clearable
                  nothingFoundMessage={t("editUser.noAdditionalQualifications")}
                  data-testid="additional-qualifications"
                />
                <Group align="flex-end" gap="xs">
                  <TextInput
                    label={t("editUser.newAdditionalQualification")}
                    value={newExtra}
                    onChange={(e) => setNewExtra(e.currentTarget.value)}
                    maw={320}
                  />
                  <Button
                    variant="light"
                    disabled={newExtra.trim() === ""}
                    onClick={() => void addExtra().catch(() => {})}
                  >
                    {t("editUser.addAdditionalQualification")}
                  </Button>
                </Group>
              </Stack>
            )}
          </Card>

          <Card withBorder>
            <Title order={2} size="h4" mb={4}>
              {t("editUser.trainingsTitle")}
            </Title>
            <Text size="sm" c="dimmed" mb="md">
              {t("editUser.trainingsHint")}
            </Text>
            {catalogue.data && trainings ? (
              <TrainingSelection
                catalogue={catalogue.data}
                selected={trainings}
                onChange={(next) => {
                  setTrainings(next);
                  setTrainingsTouched(true);
                }}
              />
            ) : (
              <Skeleton h={160} />
            )}
          </Card>

          <Group justify="flex-end">
            <Button variant="default" onClick={() => navigate("/users")}>
              {t("common.cancel")}
            </Button>
            <Button type="submit" disabled={!canSave} loading={busy}>
              {t("common.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </>
  );
}

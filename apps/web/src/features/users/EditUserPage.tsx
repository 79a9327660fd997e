import {
  type AdminUser,
  api,
  type Catalogue,
  facilityRequirement,
  generatePassword,
  grantableRoles,
  type NamedItem,
  normaliseRoles,
  type PasswordProblem,
  passwordProblems,
  type Role,
  type Salutation,
  seesAllFacilities,
  type TrainingMatrix,
  toggleRole,
  type UserFormProblem,
  userFormProblems,
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
import { useForm } from "@mantine/form";
import { IconWand } from "@tabler/icons-react";
import { useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate, useParams } from "react-router";
import { call, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { NotFoundPage } from "../../components/NotFoundPage";
import { PageHeader } from "../../components/PageHeader";
import { TrainingSelection } from "../../components/TrainingSelection";
import { useCatalogue, useFacilities } from "../../queries/admin";
import { useRequiredSession } from "../../session/store";
import { type AccessData, AccessDataDialog, GeneratedPassword } from "./AccessData";
import {
  useActivities,
  useAdminUser,
  useFacilityExtras,
  useQualifications,
  userKeys,
  useTrainingMatrix,
  useUserExtras,
} from "./queries";

interface FormValues {
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
  /** Additional qualifications of the user's facility (ids as strings, for the MultiSelect). */
  extras: string[];
  /** The assigned trainings (the training matrix). */
  trainings: number[];
}

const fromUser = (u: AdminUser): Omit<FormValues, "extras" | "trainings"> => ({
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

const allTrainings = (catalogue: Catalogue) => catalogue.flatMap((tp) => tp.trainings.map((t) => t.id));
const matrixIds = (m: TrainingMatrix) => m.topics.flatMap((tp) => tp.trainings.map((t) => t.training_id));
const sameIds = (a: readonly (number | string)[], b: readonly (number | string)[]) => {
  const set = new Set(b);
  return a.length === b.length && a.every((x) => set.has(x));
};

/** The words for a problem of the contract's user-form rule. */
function problemText(t: TFunction, problem: UserFormProblem): string {
  if (problem === "loginSpaces") return t("account.username.noSpaces");
  if (problem === "roleConflict") return t("editUser.roleConflict");
  if (problem.startsWith("password.")) return t(problem as `password.${PasswordProblem}`);
  return t(`editUser.problems.${problem as "required" | "salutationRequired" | "facilityRequired"}`);
}

const options = (items: NamedItem[] | undefined) => (items ?? []).map((i) => ({ value: String(i.id), label: i.name }));
const random = (n: number) => (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % n;

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

  const initial: FormValues = existing.data
    ? {
        ...fromUser(existing.data),
        extras: (userExtras.data ?? []).map((q) => String(q.id)),
        trainings: matrix.data ? matrixIds(matrix.data) : allTrainings(catalogue.data),
      }
    : {
        salutation: "-",
        name: "",
        surname: "",
        login: "",
        email: "",
        password: "",
        roles: ["employee"],
        // Administrators create users of their own facility.
        facility: seesAllFacilities(me.roles) ? null : (me.facility?.id ?? null),
        activities: [],
        qualifications: [],
        extras: [],
        trainings: allTrainings(catalogue.data),
      };
  return <UserForm key={editId ?? "new"} editId={editId} initial={initial} catalogue={catalogue.data} />;
}

interface UserFormProps {
  editId: number | undefined;
  initial: FormValues;
  catalogue: Catalogue;
}

/** Every rule of spec §5 in the form (the contract's userFormProblems); one atomic save. */
function UserForm({ editId, initial, catalogue }: UserFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user: me } = useRequiredSession();
  const allFacilities = seesAllFacilities(me.roles);
  const facilities = useFacilities(true);
  const qualifications = useQualifications();
  const activities = useActivities();
  const [newFacility, setNewFacility] = useState("");
  const [newExtra, setNewExtra] = useState("");
  const [busy, setBusy] = useState(false);
  /** The last generated password, shown in clear while the field still holds it. */
  const [generated, setGenerated] = useState<string | null>(null);
  const [passwordVisible, setPasswordVisible] = useState(false);
  /** Saved with a generated password: the login data to hand over (the dialog after saving). */
  const [access, setAccess] = useState<AccessData | null>(null);
  const creating = editId === undefined;

  const form = useForm<FormValues>({
    mode: "controlled",
    initialValues: initial,
    validate: (values) => {
      const problems = userFormProblems(values, {
        creating,
        salutationRequired: settings["show-salutation"],
      });
      return Object.fromEntries(Object.entries(problems).map(([field, problem]) => [field, problemText(t, problem)]));
    },
    // Errors show next to a field once it was touched; the save button stays disabled meanwhile.
    validateInputOnBlur: true,
    validateInputOnChange: ["login", "password", "roles", "facility", "salutation"],
    onValuesChange: (values, previous) => {
      // Additional qualifications belong to a facility.
      if (values.facility !== previous.facility && values.extras.length > 0) form.setFieldValue("extras", []);
    },
  });
  const values = form.getValues();
  const facilityExtras = useFacilityExtras(values.facility);

  const grantable = grantableRoles(me.roles);
  const roles = normaliseRoles(values.roles);
  const facilityRule = facilityRequirement(roles);
  const passwordList = values.password === "" ? [] : passwordProblems(values.password);
  const generate = () => {
    const password = generatePassword(random);
    form.setFieldValue("password", password);
    setGenerated(password);
    setPasswordVisible(true);
  };
  // The same validate function as the field errors (the contract's rule), without marking fields.
  const canSave = !busy && form.isValid();

  const addFacility = async () => {
    const created = await call(api.facilityCreate, { body: { name: newFacility.trim() } });
    await queryClient.invalidateQueries({ queryKey: userKeys.facilities });
    form.setFieldValue("facility", created.id);
    setNewFacility("");
    showSuccess(t("success.facilityAdded"));
  };

  const addExtra = async () => {
    if (values.facility === null) return;
    const created = await call(api.externalCreate, {
      body: { name: newExtra.trim(), facility: values.facility },
    });
    await queryClient.invalidateQueries({ queryKey: ["users", "extras"] });
    form.setFieldValue("extras", [...form.getValues().extras, String(created.id)]);
    setNewExtra("");
    showSuccess(t("success.qualificationAdded"));
  };

  /** The user, their training matrix and additional qualifications in one call: all or nothing. */
  const save = async (v: FormValues) => {
    if (!canSave) return;
    setBusy(true);
    const facility = facilityRule === "required" ? v.facility : null;
    const trainingsChanged = !sameIds(v.trainings, initial.trainings);
    const extras = facility === null ? [] : v.extras.map(Number);
    const body = {
      name: v.name,
      surname: v.surname,
      login: v.login.trim(),
      salutation: v.salutation,
      email: v.email.trim() || null,
      roles,
      facility,
      activities: v.activities.map(Number),
      qualifications: v.qualifications.map(Number),
      ...(v.password ? { password: v.password } : {}),
      // Untouched, a new user keeps 'every training' (no matrix) and an edited one their matrix.
      ...(trainingsChanged ? { trainings: v.trainings } : {}),
      ...(creating || !sameIds(extras, initial.extras.map(Number)) ? { additional_qualifications: extras } : {}),
    };
    try {
      if (creating) await call(api.adminUserCreate, { body: { ...body, password: v.password } });
      else await call(api.adminUserUpdate, { params: { id: editId }, body });
      showSuccess(t(creating ? "success.SUC_USER_CREATED" : "success.SUC_USER_EDITED"));
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      // A generated password is handed over now (copy, access slip); one typed in is known already.
      if (v.password !== "" && v.password === generated) {
        setAccess({ name: v.name, surname: v.surname, login: body.login, password: v.password });
      } else navigate("/users");
    } catch {
      // the client shows the error toast; nothing was saved
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <PageHeader title={editId === undefined ? t("editUser.createTitle") : t("editUser.editTitle")} />
      <form onSubmit={form.onSubmit((v) => void save(v))} noValidate>
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
                    {...form.getInputProps("salutation")}
                    data={[
                      { value: "Ms", label: t("editUser.ms") },
                      { value: "Mr", label: t("editUser.mr") },
                      { value: "-", label: "–" },
                    ]}
                  />
                </div>
              )}
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput label={t("editUser.name")} {...form.getInputProps("name")} required />
                <TextInput label={t("editUser.surname")} {...form.getInputProps("surname")} required />
                <TextInput
                  label={t("editUser.login")}
                  {...form.getInputProps("login")}
                  autoCapitalize="none"
                  required
                />
                <TextInput label={t("editUser.email")} type="email" {...form.getInputProps("email")} />
              </SimpleGrid>
              <Group align="flex-end" gap="xs" wrap="nowrap">
                <PasswordInput
                  style={{ flex: 1 }}
                  label={creating ? t("editUser.password") : t("editUser.newPassword")}
                  description={creating ? undefined : t("editUser.passwordKeep")}
                  {...form.getInputProps("password")}
                  // The list below names every rule broken; the field itself only says that one is.
                  error={form.errors.password ? true : undefined}
                  autoComplete="new-password"
                  required={creating}
                  visible={passwordVisible}
                  onVisibilityChange={setPasswordVisible}
                />
                <Button variant="light" leftSection={<IconWand size={16} />} onClick={generate}>
                  {t("editUser.generate")}
                </Button>
              </Group>
              {generated !== null && values.password === generated && <GeneratedPassword password={generated} />}
              {passwordList.length > 0 && (
                <List size="xs" c="dimmed" spacing={2} data-testid="password-problems">
                  {passwordList.map((p) => (
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
                <Chip
                  key={r}
                  checked={roles.includes(r)}
                  onChange={() => form.setFieldValue("roles", toggleRole(roles, r))}
                >
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
                    value={values.facility === null ? null : String(values.facility)}
                    onChange={(v) => form.setFieldValue("facility", v === null ? null : Number(v))}
                    onBlur={() => form.validateField("facility")}
                    error={form.errors.facility}
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
                {...form.getInputProps("activities")}
                searchable
                clearable
              />
              <MultiSelect
                label={t("editUser.qualifications")}
                data={options(qualifications.data)}
                {...form.getInputProps("qualifications")}
                searchable
                clearable
              />
            </SimpleGrid>
            {facilityRule === "required" && values.facility !== null && (
              <Stack gap="xs" mt="md">
                <MultiSelect
                  label={t("editUser.additionalQualifications")}
                  description={t("editUser.additionalQualificationsHint")}
                  data={(facilityExtras.data ?? []).map((q) => ({ value: String(q.id), label: q.name }))}
                  {...form.getInputProps("extras")}
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
            <Button type="submit" disabled={!canSave} loading={busy}>
              {t("common.save")}
            </Button>
          </Group>
        </Stack>
      </form>
      <AccessDataDialog access={access} onClose={() => navigate("/users")} />
    </>
  );
}

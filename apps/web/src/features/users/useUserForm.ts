import {
  type AdminUser,
  api,
  type Catalogue,
  facilityRequirement,
  generatePassword,
  type NamedItem,
  normaliseRoles,
  type PasswordProblem,
  type Role,
  type Salutation,
  seesAllFacilities,
  type TrainingMatrix,
  type User,
  type UserFormProblem,
  userFormProblems,
} from "@carecampus/contract";
import { type UseFormReturnType, useForm } from "@mantine/form";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { TFunction } from "i18next";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { call, showSuccess } from "../../api/client";
import { settings } from "../../app/settings";
import { fieldErrors } from "../../components/form-errors";
import type { AccessData } from "./AccessData";
import { userKeys } from "./queries";

export interface UserFormValues {
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

export type UserForm = UseFormReturnType<UserFormValues>;

const allTrainings = (catalogue: Catalogue) => catalogue.flatMap((tp) => tp.trainings.map((t) => t.id));
const matrixIds = (m: TrainingMatrix) => m.topics.flatMap((tp) => tp.trainings.map((t) => t.training_id));
const sameIds = (a: readonly (number | string)[], b: readonly (number | string)[]) => {
  const set = new Set(b);
  return a.length === b.length && a.every((x) => set.has(x));
};

/** What the form starts from: the user as stored (edit), or an employee with every training (create). */
export function initialUserValues(
  me: User,
  catalogue: Catalogue,
  existing?: { user: AdminUser; matrix: TrainingMatrix | null | undefined; extras: NamedItem[] | undefined },
): UserFormValues {
  if (!existing) {
    return {
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
      trainings: allTrainings(catalogue),
    };
  }
  const u = existing.user;
  return {
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
    extras: (existing.extras ?? []).map((q) => String(q.id)),
    trainings: existing.matrix ? matrixIds(existing.matrix) : allTrainings(catalogue),
  };
}

/** The words for a problem of the contract's user-form rule. */
function problemText(t: TFunction, problem: UserFormProblem): string {
  if (problem === "loginSpaces") return t("account.username.noSpaces");
  if (problem === "loginInvisible") return t("account.username.invisible");
  if (problem === "roleConflict") return t("editUser.roleConflict");
  if (problem.startsWith("password.")) return t(problem as `password.${PasswordProblem}`);
  return t(`editUser.problems.${problem as "required" | "salutationRequired" | "facilityRequired"}`);
}

const random = (n: number) => (crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) % n;

/**
 * The user form's state: values checked by the contract's userFormProblems (spec §5), the
 * generated password, and one atomic save of the user, their training matrix and their
 * additional qualifications.
 */
export function useUserForm(editId: number | undefined, initial: UserFormValues) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const creating = editId === undefined;
  /** The last generated password, shown in clear while the field still holds it. */
  const [generated, setGenerated] = useState<string | null>(null);
  const [passwordVisible, setPasswordVisible] = useState(false);
  /** Saved with a generated password: the login data to hand over (the dialog after saving). */
  const [access, setAccess] = useState<AccessData | null>(null);

  const form = useForm<UserFormValues>({
    mode: "controlled",
    initialValues: initial,
    validate: (values) =>
      fieldErrors(userFormProblems(values, { creating, salutationRequired: settings["show-salutation"] }), (p) =>
        problemText(t, p),
      ),
    // Errors show next to a field once it was touched; the save button stays disabled meanwhile.
    validateInputOnBlur: true,
    validateInputOnChange: ["login", "password", "roles", "facility", "salutation"],
    onValuesChange: (values, previous) => {
      // Additional qualifications belong to a facility.
      if (values.facility !== previous.facility && values.extras.length > 0) form.setFieldValue("extras", []);
    },
  });
  const values = form.getValues();
  const roles = normaliseRoles(values.roles);
  const facilityRule = facilityRequirement(roles);

  const generate = () => {
    const password = generatePassword(random);
    form.setFieldValue("password", password);
    setGenerated(password);
    setPasswordVisible(true);
  };

  const save = useMutation({
    mutationFn: async (v: UserFormValues) => {
      const facility = facilityRule === "required" ? v.facility : null;
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
        ...(sameIds(v.trainings, initial.trainings) ? {} : { trainings: v.trainings }),
        ...(creating || !sameIds(extras, initial.extras.map(Number)) ? { additional_qualifications: extras } : {}),
      };
      if (creating) await call(api.adminUserCreate, { body: { ...body, password: v.password } });
      else await call(api.adminUserUpdate, { params: { id: editId }, body });
      return { ...v, login: body.login };
    },
    // A failure: the client shows the error toast; nothing was saved and the form stays.
    onSuccess: async (v) => {
      showSuccess(t(creating ? "success.SUC_USER_CREATED" : "success.SUC_USER_EDITED"));
      await queryClient.invalidateQueries({ queryKey: userKeys.all });
      // A generated password is handed over now (copy, access slip); one typed in is known already.
      if (v.password !== "" && v.password === generated) {
        setAccess({ name: v.name, surname: v.surname, login: v.login, password: v.password });
      } else navigate("/users");
    },
  });

  // The same validate function as the field errors (the contract's rule), without marking fields.
  const canSave = !save.isPending && form.isValid();
  const submit = form.onSubmit((v) => {
    if (canSave) save.mutate(v);
  });

  return {
    form,
    values,
    creating,
    roles,
    facilityRule,
    canSave,
    saving: save.isPending,
    submit,
    password: { generated, generate, visible: passwordVisible, setVisible: setPasswordVisible },
    access,
  };
}

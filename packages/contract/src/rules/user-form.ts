import { facilityRequirement, normaliseRoles } from "../roles";
import type { Role } from "../schemas/role";
import { type LoginProblem, loginProblem } from "./login";
import { type PasswordProblem, passwordProblems } from "./password";

/** What the user form holds when it is checked (spec §5 'User form save is disabled when …'). */
export interface UserFormInput {
  salutation: "Mr" | "Ms" | "-";
  name: string;
  surname: string;
  login: string;
  password: string;
  roles: readonly Role[];
  facility: number | null;
}

export type UserFormProblem =
  | "required"
  | "loginSpaces"
  | "loginInvisible"
  | "salutationRequired"
  | "roleConflict"
  | "facilityRequired"
  | `password.${PasswordProblem}`;

const LOGIN_FORM_PROBLEMS = {
  required: "required",
  spaces: "loginSpaces",
  invisible: "loginInvisible",
} as const satisfies Record<LoginProblem, UserFormProblem>;

export interface UserFormContext {
  /** Creating a user (a password is required) or editing one (empty keeps the password). */
  creating: boolean;
  /** The show-salutation setting: salutation must then be Mr or Ms. */
  salutationRequired: boolean;
}

/**
 * Every rule of spec §5 and §6 the user form breaks, by field (the first problem of each field);
 * an empty object means it may be saved. The server checks the same rules again.
 */
export function userFormProblems(
  input: UserFormInput,
  context: UserFormContext,
): Partial<Record<keyof UserFormInput, UserFormProblem>> {
  const problems: Partial<Record<keyof UserFormInput, UserFormProblem>> = {};
  if (context.salutationRequired && input.salutation === "-") problems.salutation = "salutationRequired";
  if (input.name.trim() === "") problems.name = "required";
  if (input.surname.trim() === "") problems.surname = "required";
  const login = loginProblem(input.login);
  if (login) problems.login = LOGIN_FORM_PROBLEMS[login];
  if (input.password === "") {
    if (context.creating) problems.password = "required";
  } else {
    const first = passwordProblems(input.password)[0];
    if (first) problems.password = `password.${first}`;
  }
  const rule = facilityRequirement(normaliseRoles(input.roles));
  if (rule === "conflict") problems.roles = "roleConflict";
  else if (rule === "required" && input.facility === null) problems.facility = "facilityRequired";
  return problems;
}

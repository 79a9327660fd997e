import { loginKey, loginProblem, revealInvisible } from "./login";
import { passwordProblems } from "./password";

/** The header fields a user CSV must carry (spec §5), in the order a template lists them. */
export const IMPORT_FIELDS = [
  "surname",
  "name",
  "login",
  "facility",
  "activities",
  "qualifications",
  "password",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** One import may hold at most this many users (the request body limit follows from it). */
export const IMPORT_MAX_ROWS = 20_000;

/** One user as a CSV row carries it; names, not ids, for facility, activities and qualifications. */
export interface ImportRow {
  surname: string;
  name: string;
  login: string;
  facility: string;
  activities: string[];
  qualifications: string[];
  /** Required for new users; existing users keep their password when it is empty. */
  password: string;
}

export type ImportProblemCode =
  | "required"
  | "spaces"
  | "invisible"
  | "duplicateInFile"
  | "loginInUse"
  | "unknownFacility"
  | "unknownActivity"
  | "unknownQualification"
  | "passwordRule"
  | "passwordRequired";

/** A problem of one row: `row` is the 0-based index in the imported array. */
export interface ImportProblem {
  row: number;
  field: ImportField;
  code: ImportProblemCode;
  /** The offending value where it helps (an unknown name, a duplicate login). */
  value?: string;
}

/** The names the importer may use, as the lists of the server hold them. */
export interface ImportCatalogue {
  facilities: readonly string[];
  activities: readonly string[];
  qualifications: readonly string[];
}

/** Names match case-insensitively and ignore surrounding space (spec §5). */
export const importKey = (name: string) => name.normalize("NFC").trim().toLocaleLowerCase("de");

/**
 * Every problem the rows have that can be seen without the database's users: empty fields,
 * logins with spaces or invisible characters or twice in the file, unknown names, passwords breaking the rule.
 * `existingLogins` (as `loginKey` writes them) tells which rows update a user and may leave the password empty.
 */
export function checkImportRows(
  rows: readonly ImportRow[],
  catalogue: ImportCatalogue,
  existingLogins: ReadonlySet<string> = new Set(),
): ImportProblem[] {
  const problems: ImportProblem[] = [];
  const facilities = new Set(catalogue.facilities.map(importKey));
  const activities = new Set(catalogue.activities.map(importKey));
  const qualifications = new Set(catalogue.qualifications.map(importKey));
  const firstRowOfLogin = new Map<string, number>();
  rows.forEach((r, row) => {
    for (const field of ["surname", "name", "login", "facility"] as const) {
      if (r[field].trim() === "") problems.push({ row, field, code: "required" });
    }
    const login = loginKey(r.login);
    const loginRule = loginProblem(r.login);
    if (loginRule === "spaces" || loginRule === "invisible") {
      problems.push({ row, field: "login", code: loginRule, value: revealInvisible(r.login) });
    }
    if (login !== "") {
      const first = firstRowOfLogin.get(login);
      if (first !== undefined) problems.push({ row, field: "login", code: "duplicateInFile", value: r.login });
      else firstRowOfLogin.set(login, row);
    }
    if (r.facility.trim() !== "" && !facilities.has(importKey(r.facility))) {
      problems.push({ row, field: "facility", code: "unknownFacility", value: r.facility });
    }
    for (const a of r.activities) {
      if (!activities.has(importKey(a))) problems.push({ row, field: "activities", code: "unknownActivity", value: a });
    }
    for (const q of r.qualifications) {
      if (!qualifications.has(importKey(q)))
        problems.push({ row, field: "qualifications", code: "unknownQualification", value: q });
    }
    if (r.password === "") {
      if (!existingLogins.has(login)) problems.push({ row, field: "password", code: "passwordRequired" });
    } else if (passwordProblems(r.password).length > 0) {
      problems.push({ row, field: "password", code: "passwordRule" });
    }
  });
  return problems;
}

/** Splits a CSV list cell ("Pflege; Betreuung") into trimmed names. */
export function splitNames(cell: string): string[] {
  return cell
    .split(";")
    .map((s) => s.normalize("NFC").trim())
    .filter((s) => s !== "");
}

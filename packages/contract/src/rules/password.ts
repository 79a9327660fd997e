/** The special characters a password may and must contain (spec §5). */
export const PASSWORD_SPECIALS = "@$!%*?&#+-";
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;

const ALLOWED = /^[A-Za-z0-9@$!%*?&#+-]+$/;

export type PasswordProblem = "length" | "lowercase" | "uppercase" | "digit" | "special" | "characters";

/** Every rule of spec §5 a password breaks; empty when it is acceptable. */
export function passwordProblems(password: string): PasswordProblem[] {
  const problems: PasswordProblem[] = [];
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) problems.push("length");
  if (!/[a-z]/.test(password)) problems.push("lowercase");
  if (!/[A-Z]/.test(password)) problems.push("uppercase");
  if (!/[0-9]/.test(password)) problems.push("digit");
  if (![...password].some((c) => PASSWORD_SPECIALS.includes(c))) problems.push("special");
  if (password.length > 0 && !ALLOWED.test(password)) problems.push("characters");
  return problems;
}

export function isValidPassword(password: string): boolean {
  return passwordProblems(password).length === 0;
}

const GENERATED_SPECIALS = "@$!%*?&";
const UPPER = "ABCDEFGHJKLMNPQRSTUVWXYZ";
const LOWER = "abcdefghijkmnopqrstuvwxyz";
const DIGITS = "23456789";

/**
 * An 8-character password mixing upper case, digits, lower case and @$!%*?& (spec §5).
 * `random(n)` returns an integer in [0, n); pass a crypto-backed one.
 */
export function generatePassword(random: (n: number) => number): string {
  const pick = (set: string) => set.charAt(random(set.length));
  const all = UPPER + LOWER + DIGITS + GENERATED_SPECIALS;
  const chars = [pick(UPPER), pick(LOWER), pick(DIGITS), pick(GENERATED_SPECIALS)];
  while (chars.length < PASSWORD_MIN_LENGTH) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [chars[i], chars[j]] = [chars[j] as string, chars[i] as string];
  }
  return chars.join("");
}

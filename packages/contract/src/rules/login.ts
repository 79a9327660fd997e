/**
 * The one form of a login name used when storing (users.login_key), comparing and searching:
 * Unicode NFKC (compatibility forms such as full-width letters or ligatures become the plain
 * ones), trimmed, and lower-cased by Unicode's default case mapping. `String#toLowerCase` is
 * locale-independent, unlike `toLocaleLowerCase` or PostgreSQL's `lower()`, which follows the
 * database's locale and so once locked out a user named 'İlker'.
 *
 * Decided: 'İ' (dotted capital I) lower-cases to 'i̇' (i + U+0307), so 'İlker' is its own login,
 * apart from 'ilker'; 'ß' stays 'ß' (no full folding to 'ss'), so 'Straße' and 'STRASSE' are two
 * logins, while 'ẞ' (capital sharp s) finds 'ß'. Either logs in as typed, in any case of its
 * other letters.
 */
export function loginKey(login: string): string {
  return login.normalize("NFKC").toLowerCase().normalize("NFKC").trim();
}

/**
 * Characters no login may hold: invisible and formatting ones (Unicode category Cf, such as the
 * zero-width space U+200B, joiners, U+FEFF, the soft hyphen U+00AD, bidi marks and overrides), the
 * other default-ignorable code points (variation selectors, Hangul fillers, U+034F) and control
 * characters. With one of them 'employee' and 'employee' + U+200B would be two users who look
 * alike everywhere; NFKC (loginKey) keeps them, so they are refused instead.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}]/u;
const INVISIBLE_ALL = new RegExp(INVISIBLE.source, "gu");

/** What is wrong with a new login (spec §5 'no spaces', issue 27 'no invisible characters'). */
export type LoginProblem = "required" | "spaces" | "invisible";

/** The first rule a new login breaks, or undefined: every place that sets a login checks this. */
export function loginProblem(login: string): LoginProblem | undefined {
  const trimmed = login.trim();
  if (trimmed === "") return "required";
  // First: U+FEFF counts as white space to JavaScript, yet it is an invisible character.
  if (INVISIBLE.test(login)) return "invisible";
  if (/\s/.test(trimmed)) return "spaces";
  return undefined;
}

/** The message of a login refused for an invisible character (the server's 1100 answers). */
export const LOGIN_INVISIBLE_MESSAGE = "no invisible or formatting characters (such as U+200B)";

/** Does the text hold a character no login may hold? A login attempt with one names nobody. */
export function hasInvisibleCharacters(text: string): boolean {
  return INVISIBLE.test(text);
}

/** The login with each invisible character written out (`employee<U+200B>`), to show where it is. */
export function revealInvisible(login: string): string {
  return login.replace(
    INVISIBLE_ALL,
    (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, "0")}>`,
  );
}

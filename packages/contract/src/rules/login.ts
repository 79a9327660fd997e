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

/*
 * Texts of the locale files that only the server reads: its own pages (/v, /v/credential), the
 * mails and the data export's summary. The locale files stay the one source of every text (and
 * npm run check:locales checks them whole), but the web app's language chunks leave these out
 * (vite.config.ts): the login loads its language's chunk, and every byte of it counts on a slow
 * phone (e2e/tests/bundle.spec.ts).
 */
export const SERVER_ONLY_TEXTS: readonly string[] = [
  "verify",
  "mail",
  "credentials.page",
  "privacy.summary",
  "privacy.partWhat",
  "revoke.mail",
];

/** A locale without the server's texts (paths as above: a namespace or namespace.key). */
export function withoutServerTexts(locale: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...locale };
  for (const path of SERVER_ONLY_TEXTS) {
    const [ns, key] = path.split(".") as [string, string | undefined];
    if (key === undefined) delete out[ns];
    else if (typeof out[ns] === "object" && out[ns] !== null) {
      const { [key]: _, ...rest } = out[ns] as Record<string, unknown>;
      out[ns] = rest;
    }
  }
  return out;
}

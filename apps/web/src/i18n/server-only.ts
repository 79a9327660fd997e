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

/**
 * The texts the login needs before anyone is logged in (the login page, its toasts and errors,
 * the lockout dialog, the error and not-found pages, the version label): the first of a
 * language's two chunks. The rest (every screen behind the login) is the second, loaded beside
 * the login and awaited before the app's shell shows (i18n/index.ts). Namespaces, as above.
 */
export const LOGIN_TEXTS: readonly string[] = [
  "common",
  "nav",
  "login",
  "errors",
  "success",
  "lockout",
  "session",
  "version",
  "notFound",
  "errorPage",
  "dates",
  "pagination",
];

/** The login's part of a locale (`core`) or everything else (`rest`), the server's texts left out of both. */
export function localePart(locale: Record<string, unknown>, part: "core" | "rest"): Record<string, unknown> {
  const web = withoutServerTexts(locale);
  return Object.fromEntries(Object.entries(web).filter(([ns]) => LOGIN_TEXTS.includes(ns) === (part === "core")));
}

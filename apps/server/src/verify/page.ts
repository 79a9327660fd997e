import {
  type CertificateStatus,
  formatDate,
  formatIsoDay,
  type Language,
  languageTag,
  MAX_TYPED_CODE,
  type PublicVerification,
} from "@carecampus/contract";
import { escapeHtml as e } from "../authoring/question-bank/text";
import type { Verification } from "./service";
import { type VerifyTexts, verifyTexts } from "./texts";

/*
 * The public verification pages (/v and /v/{code}): plain HTML and CSS, no JavaScript, for an
 * inspector's phone. The status stands in big words with an icon whose shape differs per status,
 * so colour never carries the meaning alone; the dark theme follows prefers-color-scheme.
 */

type Shown = CertificateStatus | "unknown";

/** The icons (24×24, stroked): a check, a clock, a cross, a renewal's arrows, a question mark. */
const ICONS: Record<Shown, string> = {
  valid: '<circle cx="12" cy="12" r="10"/><path d="M7 12.5l3.2 3.2L17 9"/>',
  expired: '<circle cx="12" cy="12" r="10"/><path d="M12 6.5V12l3.5 2.5"/>',
  revoked: '<circle cx="12" cy="12" r="10"/><path d="M8.5 8.5l7 7M15.5 8.5l-7 7"/>',
  replaced:
    '<path d="M20 11a8 8 0 0 0-14.3-4.9L4 8"/><path d="M4 3.5V8h4.5"/><path d="M4 13a8 8 0 0 0 14.3 4.9L20 16"/><path d="M20 20.5V16h-4.5"/>',
  unknown:
    '<circle cx="12" cy="12" r="10"/><path d="M9.2 9.2a2.9 2.9 0 1 1 4.1 2.6c-.8.4-1.3 1-1.3 1.9v.6"/><path d="M12 17.3v.2"/>',
};

const icon = (status: Shown) =>
  `<svg class="icon" viewBox="0 0 24 24" width="44" height="44" aria-hidden="true" focusable="false" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round">${ICONS[status]}</svg>`;

const STYLE = `
:root { color-scheme: light dark; --bg: #f4f7f7; --fg: #172026; --card: #fff; --line: #c9d4d8; --muted: #44525c; --brand: #0f665f; --focus: #0b57d0;
  --valid-bg: #e3f4e8; --valid-fg: #13502b; --expired-bg: #fff1dc; --expired-fg: #7a2e0b; --revoked-bg: #fde7e7; --revoked-fg: #7f1d1d;
  --replaced-bg: #e6eefc; --replaced-fg: #1e3a8a; --unknown-bg: #eceff2; --unknown-fg: #1f2937; }
@media (prefers-color-scheme: dark) {
  :root { --bg: #0f1518; --fg: #e7edf0; --card: #172127; --line: #34434c; --muted: #b6c3ca; --brand: #5eead4; --focus: #8ab4f8;
    --valid-bg: #0f2f1d; --valid-fg: #8ff0b0; --expired-bg: #3a240e; --expired-fg: #fdc28b; --revoked-bg: #3d1414; --revoked-fg: #fcaaaa;
    --replaced-bg: #172552; --replaced-fg: #a8c8ff; --unknown-bg: #212b33; --unknown-fg: #e5e7eb; }
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 1.0625rem/1.55 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header, main, footer { max-width: 40rem; margin: 0 auto; padding: 0 1rem; }
header { padding-top: 1rem; color: var(--brand); font-weight: 700; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: .5rem 0 1rem; }
h2 { font-size: 1.2rem; margin: 0 0 .5rem; }
.result { border: 2px solid currentColor; border-radius: .75rem; background: var(--card); overflow: hidden; margin-bottom: 1.25rem; }
.status { display: flex; align-items: center; gap: .75rem; margin: 0; padding: 1rem; font-size: 2rem; line-height: 1.15; font-weight: 800; }
.status .icon { flex: none; }
.line { margin: 0; padding: 0 1rem 1rem; font-weight: 600; }
.s-valid { color: var(--valid-fg); } .s-valid .status, .s-valid .line { background: var(--valid-bg); }
.s-expired { color: var(--expired-fg); } .s-expired .status, .s-expired .line { background: var(--expired-bg); }
.s-revoked { color: var(--revoked-fg); } .s-revoked .status, .s-revoked .line { background: var(--revoked-bg); }
.s-replaced { color: var(--replaced-fg); } .s-replaced .status, .s-replaced .line { background: var(--replaced-bg); }
.s-unknown { color: var(--unknown-fg); } .s-unknown .status, .s-unknown .line { background: var(--unknown-bg); }
dl { margin: 0; padding: .5rem 1rem 1rem; color: var(--fg); }
dl div { padding: .5rem 0; border-bottom: 1px solid var(--line); }
dl div:last-child { border-bottom: 0; }
dt { color: var(--muted); font-size: .9rem; }
dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; letter-spacing: .03em; }
.proves, .hint, footer { color: var(--muted); }
.proves { margin: 0 0 1.5rem; }
form { margin: 0 0 2rem; }
label { display: block; font-weight: 700; margin-bottom: .25rem; }
.hint { margin: 0 0 .5rem; font-size: .95rem; }
.error { color: var(--revoked-fg); background: var(--revoked-bg); padding: .25rem .5rem; border-radius: .25rem; font-weight: 600; margin: 0 0 .5rem; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; }
input { flex: 1 1 14rem; min-width: 0; font: inherit; font-family: ui-monospace, Menlo, Consolas, monospace; padding: .6rem .7rem; border: 2px solid var(--muted); border-radius: .5rem; background: var(--card); color: var(--fg); }
button { font: inherit; font-weight: 700; padding: .6rem 1.2rem; border: 0; border-radius: .5rem; background: var(--brand); color: var(--card); cursor: pointer; }
input:focus-visible, button:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
footer { padding-bottom: 1.5rem; font-size: .9rem; }
`;

function layout(language: Language, t: VerifyTexts, title: string, body: string): string {
  return `<!doctype html>
<html lang="${languageTag(language)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<title>${e(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<header>CareCampus</header>
<main>
${body}
</main>
<footer><p>${e(t.brand)}</p></footer>
</body>
</html>
`;
}

const fill = (s: string, values: Record<string, string>) =>
  s.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, k: string) => (k in values ? (values[k] as string) : whole));

/** The form to type a code in; `error`: the empty form was sent. */
function codeForm(
  t: VerifyTexts,
  options: { heading?: string; value?: string; error?: boolean; autofocus?: boolean },
): string {
  const described = options.error ? "code-error code-hint" : "code-hint";
  return `<form method="get" action="/v">
${options.heading ? `<h2>${e(options.heading)}</h2>` : ""}
<label for="code">${e(t.form.label)}</label>
${options.error ? `<p class="error" id="code-error">${e(t.form.empty)}</p>` : ""}
<p class="hint" id="code-hint">${e(t.form.hint)}</p>
<div class="row">
<input id="code" name="code" type="text" inputmode="text" autocomplete="off" autocapitalize="characters" spellcheck="false" maxlength="${MAX_TYPED_CODE}" value="${e(options.value ?? "")}" aria-describedby="${described}"${options.error ? ' aria-invalid="true"' : ""}${options.autofocus ? " autofocus" : ""}>
<button type="submit">${e(t.form.submit)}</button>
</div>
</form>`;
}

function facts(t: VerifyTexts, found: PublicVerification, zone: string): string {
  const rows: [string, string, string?][] = [
    [t.field.holder, found.holder],
    [t.field.training, found.training],
    [t.field.topic, found.topic],
    ...(found.facility ? [[t.field.facility, found.facility] as [string, string]] : []),
    [t.field.issuedAt, formatDate(found.issued_at, zone)],
    [t.field.validUntil, formatDate(found.valid_until, zone)],
    ...(found.revoked_on
      ? [[t.field.revokedOn, formatIsoDay(found.revoked_on) ?? found.revoked_on] as [string, string]]
      : []),
    [t.field.code, found.code, "code"],
  ];
  return `<dl>
${rows.map(([term, value, cls]) => `<div><dt>${e(term)}</dt><dd${cls ? ` class="${cls}"` : ""}>${e(value)}</dd></div>`).join("\n")}
</dl>`;
}

/** The line under the status word, with the day that matters for it. */
function statusLine(t: VerifyTexts, found: PublicVerification, zone: string): string {
  switch (found.status) {
    case "valid":
    case "expired":
      return fill(e(t.line[found.status]), { date: formatDate(found.valid_until, zone) });
    case "revoked":
      return fill(e(t.line.revoked), { date: formatIsoDay(found.revoked_on ?? "") ?? "" });
    case "replaced":
      return fill(e(t.line.replaced), { date: formatDate(found.replaced_by?.valid_until ?? found.valid_until, zone) });
  }
}

/**
 * The answer page of a code, known or not: the same template either way. `typed`: what was sent
 * (the form shows it again for an unknown code).
 */
export function resultPage(language: Language, verification: Verification, typed: string, zone: string): string {
  const t = verifyTexts(language);
  const { found } = verification;
  const shown: Shown = found?.status ?? "unknown";
  const line = found
    ? statusLine(t, found, zone)
    : `${e(t.line.unknown)}${verification.mistyped ? ` ${e(t.line.mistyped)}` : ""}`;
  const body = `<h1>${e(t.title)}</h1>
<section class="result s-${shown}" aria-labelledby="status">
<h2 class="status" id="status">${icon(shown)}<span>${e(t.status[shown])}</span></h2>
<p class="line">${line}</p>
${found ? facts(t, found, zone) : ""}
</section>
<p class="proves">${e(t.proves)}</p>
${codeForm(t, { heading: t.form.another, value: found ? "" : typed })}`;
  return layout(language, t, `${t.status[shown]} – ${t.title}`, body);
}

/**
 * The page to type a code in (/v); `error`: it was sent empty. With VERIFIABLE_CREDENTIALS it
 * also leads to the check of a credential file (/v/credential).
 */
export function formPage(language: Language, error: boolean, credentials = false): string {
  const t = verifyTexts(language);
  const body = `<h1>${e(t.title)}</h1>
<p>${e(t.intro)}</p>
${codeForm(t, { error, autofocus: true })}
<p class="proves">${e(t.proves)}</p>
${credentials ? `<p><a href="/v/credential">${e(t.credentialLink)}</a></p>` : ""}`;
  return layout(language, t, t.title, body);
}

/** The readable answer to a viewer past VERIFY_RATE_PER_MINUTE. */
export function tooManyPage(language: Language, seconds: number): string {
  const t = verifyTexts(language);
  const body = `<h1>${e(t.tooMany.title)}</h1>
<p>${fill(e(t.tooMany.text), { seconds: String(seconds) })}</p>`;
  return layout(language, t, t.tooMany.title, body);
}

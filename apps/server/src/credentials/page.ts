import { LANGUAGES, type Language, languageTag } from "@carecampus/contract";
// The locale files are the one source of every text a user reads (as for the mails).
import br from "@carecampus/web/locales/br.json";
import de from "@carecampus/web/locales/de.json";
import en from "@carecampus/web/locales/en.json";
import es from "@carecampus/web/locales/es.json";
import fr from "@carecampus/web/locales/fr.json";
import type { VerifyAnswer } from "./service";

type PageTexts = typeof de.credentials.page;
const TEXTS: Record<Language, PageTexts> = {
  de: de.credentials.page,
  en: en.credentials.page,
  fr: fr.credentials.page,
  es: es.credentials.page,
  br: br.credentials.page,
};

/**
 * The reader's language among the five, by Accept-Language (its order and q-values): pt is
 * Brazilian Portuguese here (br); German when none of them is asked for.
 */
export function pageLanguage(acceptLanguage: string | undefined): Language {
  const wanted = (acceptLanguage ?? "")
    .split(",")
    .map((part, i) => {
      const [tag = "", ...params] = part.trim().toLowerCase().split(";");
      const q = Number(
        params
          .find((p) => p.trim().startsWith("q="))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { tag, q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((w) => w.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  for (const { tag } of wanted) {
    const base = tag.split("-")[0] ?? "";
    const lang = base === "pt" ? "br" : base;
    if ((LANGUAGES as readonly string[]).includes(lang)) return lang as Language;
  }
  return "de";
}

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] as string);

export type PageState =
  | { state: "form" }
  | { state: "error"; reason: keyof PageTexts["error"] }
  | { state: "result"; answer: VerifyAnswer };

function formatDate(iso: string | null, lang: Language, zone: string): string | null {
  if (!iso) return null;
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return null;
  return new Intl.DateTimeFormat(languageTag(lang), { dateStyle: "long", timeZone: zone }).format(d);
}

const STYLE = `
/* The colours of the code's page (verify/page.ts): the same text contrasts (AA) in both schemes. */
:root{color-scheme:light dark;--bg:#f4f7f7;--fg:#172026;--card:#fff;--line:#c9d4d8;--ok:#13502b;--bad:#7f1d1d;--accent:#0f665f}
@media (prefers-color-scheme:dark){:root{--bg:#0f1518;--fg:#e7edf0;--card:#172127;--line:#34434c;--ok:#8ff0b0;--bad:#fcaaaa;--accent:#5eead4}}
*{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,sans-serif;background:var(--bg);color:var(--fg)}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem}h1{font-size:1.5rem;margin:0 0 .75rem}h2{font-size:1.2rem;margin:0 0 .75rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:1rem;margin:1rem 0;overflow-wrap:break-word;hyphens:auto}
label{display:block;font-weight:600;margin-bottom:.5rem}input[type=file]{max-width:100%;margin-bottom:1rem;color:inherit}
button{font:inherit;padding:.5rem 1.25rem;border-radius:6px;border:0;background:var(--accent);color:var(--bg);cursor:pointer}
button:focus-visible,a:focus-visible,input:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
a{color:var(--accent)}.ok{color:var(--ok)}.bad{color:var(--bad)}
dl{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:.25rem 1rem;margin:0}dt{font-weight:600}dd{margin:0}
@media (max-width:30rem){dl{grid-template-columns:minmax(0,1fr)}dd{margin-bottom:.5rem}}
`;

/** The verification page /v/credential: the form, or the result of an upload, in the reader's language. */
export function renderVerifyPage(acceptLanguage: string | undefined, zone: string, page: PageState): string {
  const lang = pageLanguage(acceptLanguage);
  const t = TEXTS[lang];
  const form = `<form method="post" action="/v/credential" enctype="multipart/form-data" class="card">
<label for="credential">${esc(t.file)}</label>
<input type="file" id="credential" name="credential" accept=".json,application/json,application/ld+json" required>
<div><button type="submit">${esc(t.submit)}</button></div>
</form>`;
  let body: string;
  if (page.state === "form") {
    body = `<p>${esc(t.intro)}</p>${form}`;
  } else if (page.state === "error") {
    body = `<p role="alert" class="bad" id="result">${esc(t.error[page.reason])}</p>${form}`;
  } else {
    const a = page.answer;
    const outcome = (v: keyof PageTexts["outcome"]) =>
      `<span class="${v === "ok" ? "ok" : "bad"}">${v === "ok" ? "✓" : "✗"} ${esc(t.outcome[v])}</span>`;
    const rows: [string, string][] = [
      [t.check.signature, outcome(a.checks.signature)],
      [t.check.issuer, outcome(a.checks.issuer)],
      [t.check.validity, outcome(a.checks.validity)],
      [t.check.status, outcome(a.checks.status)],
    ];
    if (a.training) rows.push([t.training, esc(a.training)]);
    const from = formatDate(a.valid_from, lang, zone);
    const until = formatDate(a.valid_until, lang, zone);
    if (from) rows.push([t.validFrom, esc(from)]);
    if (until) rows.push([t.validUntil, esc(until)]);
    body = `<section class="card" aria-labelledby="result">
<h2 id="result" class="${a.valid ? "ok" : "bad"}" data-valid="${a.valid}">${esc(a.valid ? t.valid : t.invalid)}</h2>
<dl>${rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${v}</dd>`).join("")}</dl>
</section>
<p><a href="/v/credential">${esc(t.again)}</a></p>`;
  }
  return `<!doctype html>
<html lang="${languageTag(lang)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(page.state === "result" ? `${t.result} – ${t.title}` : t.title)}</title>
<style>${STYLE}</style></head>
<body><main><h1>${esc(t.title)}</h1>${body}</main></body></html>`;
}

import { ErrorCode, SOURCE_LANGUAGE } from "@carecampus/contract";
import type { MachineTranslationConfig } from "../config";
import { AppError } from "../errors";

/*
 * Machine translation for suggestions (issue 31): an HTTP service the facility runs, spoken to in
 * LibreTranslate's protocol — POST {url}/translate with { q: [texts], source: "de", target,
 * format: "text" | "html", api_key? }, answered { translatedText: [texts] }. Its suggestions are
 * stored with the status `machine`, which learners never see (authoring/translations.ts).
 */

export interface MachineTranslator {
  /** The texts from German into `lang`, in their order; plain text or HTML (tags kept). */
  translate(texts: string[], lang: string, format: "text" | "html"): Promise<string[]>;
}

/**
 * A content language as LibreTranslate names it: "pb" for Brazilian Portuguese (the interface's
 * "br"), every other code as it is.
 */
export function serviceLanguage(lang: string): string {
  return lang === "br" ? "pb" : lang;
}

const unavailable = (why: string) =>
  new AppError(ErrorCode.machineTranslationUnavailable, `The machine translation service ${why}`);

export function machineTranslator(config: MachineTranslationConfig): MachineTranslator {
  return {
    async translate(texts, lang, format) {
      if (texts.length === 0) return [];
      let res: Response;
      try {
        res = await fetch(`${config.url}/translate`, {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({
            q: texts,
            source: SOURCE_LANGUAGE,
            target: serviceLanguage(lang),
            format,
            ...(config.apiKey ? { api_key: config.apiKey } : {}),
          }),
          signal: AbortSignal.timeout(config.timeoutMs),
          redirect: "error",
        });
      } catch (err) {
        throw unavailable(
          (err as Error).name === "TimeoutError" ? `did not answer within ${config.timeoutMs} ms` : "cannot be reached",
        );
      }
      const data: unknown = await res.json().catch(() => null);
      if (!res.ok) {
        const said = (data as { error?: unknown } | null)?.error;
        throw unavailable(`answered ${res.status}${typeof said === "string" ? `: ${said.slice(0, 200)}` : ""}`);
      }
      const out = (data as { translatedText?: unknown } | null)?.translatedText;
      if (!Array.isArray(out) || out.length !== texts.length || !out.every((t) => typeof t === "string")) {
        throw unavailable("answered with something that is not one translation per text");
      }
      return out as string[];
    },
  };
}

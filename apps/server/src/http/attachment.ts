import { create } from "content-disposition";

/** Letters whose ASCII spelling is not their base letter: German umlauts first (Müller → Mueller). */
const SPELLED: Record<string, string> = {
  ä: "ae",
  ö: "oe",
  ü: "ue",
  Ä: "Ae",
  Ö: "Oe",
  Ü: "Ue",
  ß: "ss",
  ẞ: "SS",
  Æ: "AE",
  æ: "ae",
  Œ: "OE",
  œ: "oe",
  Ø: "O",
  ø: "o",
  Ł: "L",
  ł: "l",
  Đ: "D",
  đ: "d",
  ı: "i",
  Þ: "Th",
  þ: "th",
};
const SPELLED_PATTERN = new RegExp(`[${Object.keys(SPELLED).join("")}]`, "g");

/**
 * A file name in printable ASCII for clients that ignore `filename*`: transliterated where
 * Latin letters allow (Müller → Mueller, Łukasz → Lukasz, José → Jose), '_' for the rest.
 */
export function asciiFileName(name: string): string {
  return name
    .replace(SPELLED_PATTERN, (c) => SPELLED[c] ?? c)
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .replace(/[^\x20-\x7e]|["\\]/g, "_");
}

/**
 * Content-Disposition of a download (RFC 6266): saved, not shown in the tab, under its full
 * name (`filename*`, UTF-8, keeps Yıldız or Петров) with a transliterated ASCII `filename`.
 */
export function attachment(filename: string): string {
  const safe = filename.replace(/[\p{Cc}/\\]/gu, "_");
  return create(safe, { type: "attachment", fallback: asciiFileName(safe) });
}

import iconv from "iconv-lite";

/** Bytes Windows-1252 leaves undefined, and C0 controls other than tab and line breaks: no text file has them. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what this looks for
const NOT_TEXT = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0081\u008d\u008f\u0090\u009d\ufffd]/;
/**
 * Signs that inside a word stand where Windows-1250 has a letter: Ł→£, Ą→¥, Ż→¯, ł→³, ą→¹,
 * ż→¿, ź→Ÿ, Ľ→¼, ľ→¾, Ş→ª, ş→º and the accents ˇ ˘ ˛ ˝. Next to a letter they mean a
 * Polish, Czech or Hungarian file, never a German or French name.
 */
const CENTRAL_EUROPEAN = /\p{L}[£¥¦ª¯³¹º¼¾¿Ÿ¨´¸]|[£¥¦ª¯³¹º¼¾¿Ÿ¨´¸]\p{L}/u;
/**
 * A word of three or more letters with no ASCII letter among them: Cyrillic (Иван → Èâàí) or Greek
 * read as Windows-1252. Western names always keep ASCII letters between their accents.
 */
const NO_ASCII_WORD = /(?<!\p{L})(?:(?![A-Za-z])\p{L}){3,}(?!\p{L})/u;

/**
 * Decodes a file that is neither UTF-8 nor UTF-16 as Windows-1252 (what German, French and
 * Spanish Excel write) if the text reads as such, else null: binary data, and Central European
 * or Cyrillic files, stay out instead of turning into mojibake. The check is a fixed rule, not a
 * statistical detector, so the same file always gets the same answer.
 * iconv-lite decodes, not TextDecoder: Node's 'windows-1252' is really Latin-1 and would turn
 * € „ “ Š œ into control characters, so the tests on Node would not prove what browsers do.
 */
export function decodeWindows1252(bytes: Uint8Array): string | null {
  const text = iconv.decode(bytes as Buffer, "win1252");
  if (NOT_TEXT.test(text) || CENTRAL_EUROPEAN.test(text) || NO_ASCII_WORD.test(text)) return null;
  return text;
}

/*
 * Staff search that forgives spelling (issue 13): 'mueller' finds Müller, 'ozturk' Öztürk,
 * 'lefevre' Lefèvre, 'lukasz' Łukasz. Names and what is typed are both reduced to one search
 * form; a name matches when its form contains the typed one. The server computes the same form
 * in SQL (users/search.ts); a test holds the two together.
 */

/** Letters without a decomposition, lower and upper case, and what they are searched as. */
export const SEARCH_LETTERS: Readonly<Record<string, string>> = {
  ł: "l",
  Ł: "l",
  đ: "d",
  Đ: "d",
  ð: "d",
  Ð: "d",
  ı: "i",
  ø: "o",
  Ø: "o",
  þ: "th",
  Þ: "th",
  ß: "ss",
  ẞ: "ss",
  æ: "ae",
  Æ: "ae",
  œ: "oe",
  Œ: "oe",
};

/**
 * The search form of a text: compatibility-decomposed, lower case, without accents and marks,
 * the letters above spelt out, and the German spellings ae/oe/ue read as a/o/u (so 'Mueller'
 * and 'Müller' are the same name).
 */
export function searchKey(text: string): string {
  return text
    .normalize("NFKD")
    .replace(/[łŁđĐðÐıøØþÞßẞæÆœŒ]/g, (c) => SEARCH_LETTERS[c] ?? c)
    .toLowerCase()
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/ae/g, "a")
    .replace(/oe/g, "o")
    .replace(/ue/g, "u")
    .trim();
}

/*
 * Certificate verification codes (issue 29): what the paper prints and an inspector types.
 *
 * A new code is 16 characters of Crockford's base32 (80 random bits) and one check character,
 * printed in groups as XXXX-XXXX-XXXX-XXXX-C and stored in one normalised form: upper case,
 * without the dashes (17 characters). The alphabet has no I, L, O or U, so nothing reads as
 * another; what people type for them anyway (I and L for 1, O for 0) is read as meant. The check
 * character (Luhn mod 32) catches every single mistyped character and every swap of two
 * neighbours but one in 32. Codes issued before are 12 hexadecimal characters: they stay valid,
 * the same normalisation finds them.
 */

/** Crockford's base32: digits and letters without I, L, O and U. */
export const CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/** Random characters of a new code (5 bits each: 80 bits). */
export const CODE_RANDOM_LENGTH = 16;
/** A new code as stored: the random characters and the check character. */
export const CODE_LENGTH = CODE_RANDOM_LENGTH + 1;
/** A code issued before issue 29: 12 hexadecimal characters. */
export const LEGACY_CODE = /^[0-9A-F]{12}$/;
/** What a code may be typed as at most (the form's and the address's bound). */
export const MAX_TYPED_CODE = 64;

const N = CODE_ALPHABET.length;

/** The Luhn mod 32 sum of `chars`, doubling from the right (`checked`: the last one is the check). */
function luhnSum(chars: string, checked: boolean): number {
  let sum = 0;
  let double = !checked;
  for (let i = chars.length - 1; i >= 0; i--) {
    let v = CODE_ALPHABET.indexOf(chars[i] as string);
    if (double) v *= 2;
    sum += Math.floor(v / N) + (v % N);
    double = !double;
  }
  return sum % N;
}

/** The check character of a code's random characters. */
export function checkCharacter(random: string): string {
  return CODE_ALPHABET[(N - luhnSum(random, false)) % N] as string;
}

/** A new code in its stored form: 16 random characters (80 bits) and the check character. */
export function newVerificationCode(): string {
  const bytes = new Uint8Array(CODE_RANDOM_LENGTH);
  crypto.getRandomValues(bytes);
  // 256 is a multiple of 32: the low five bits of each byte are uniform.
  const random = Array.from(bytes, (b) => CODE_ALPHABET[b & 31]).join("");
  return random + checkCharacter(random);
}

/**
 * A code as typed (spaces, dashes, lower case, I/L for 1 and O for 0) in its stored form;
 * anything else stays in, so a code with a foreign character matches nothing.
 */
export function normaliseVerificationCode(typed: string): string {
  return typed
    .normalize("NFKC")
    .toUpperCase()
    .replace(/[\s\-‐‑‒–—_.]/g, "")
    .replace(/[IL]/g, "1")
    .replace(/O/g, "0")
    .slice(0, MAX_TYPED_CODE);
}

/**
 * What a normalised code is: a new code (its check character holds), a legacy 12-character
 * code, a new code with a typo (the check character does not hold), or no code at all.
 */
export function verificationCodeShape(code: string): "current" | "legacy" | "mistyped" | "malformed" {
  if (LEGACY_CODE.test(code)) return "legacy";
  if (code.length !== CODE_LENGTH || [...code].some((c) => !CODE_ALPHABET.includes(c))) return "malformed";
  return luhnSum(code, true) === 0 ? "current" : "mistyped";
}

/** A stored code as printed: new codes in groups of four (XXXX-XXXX-XXXX-XXXX-C), legacy ones as they are. */
export function formatVerificationCode(code: string): string {
  if (code.length !== CODE_LENGTH) return code;
  return [code.slice(0, 4), code.slice(4, 8), code.slice(8, 12), code.slice(12, 16), code.slice(16)].join("-");
}

/** The public page of a certificate: PUBLIC_URL/v/<code>, the address its QR code holds. */
export function verificationAddress(publicUrl: string, code: string): string {
  return `${publicUrl}/v/${encodeURIComponent(code)}`;
}

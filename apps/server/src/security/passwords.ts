import { hash, verify } from "@node-rs/argon2";

// OWASP's argon2id baseline (19 MiB, 2 passes); @node-rs/argon2 runs it off the event loop.
const OPTIONS = {
  algorithm: 2 /* Algorithm.Argon2id: a const enum, not importable under isolatedModules */,
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
} as const;

/**
 * Test servers (TEST_PASSWORD_HASHING=true, e2e/serve.mjs) make and check hundreds of passwords
 * whose strength means nothing: argon2id at 1 MiB and one pass costs a twentieth of the CPU. A hash
 * names its own parameters, so either kind verifies wherever it is read.
 */
const TEST_OPTIONS = { ...OPTIONS, memoryCost: 1024, timeCost: 1 } as const;
let options: typeof OPTIONS | typeof TEST_OPTIONS = OPTIONS;

/** Switches this process to the test servers' cheap hashes (main.ts, from the configuration), or back. */
export function useTestPasswordHashing(test = true): void {
  options = test ? TEST_OPTIONS : OPTIONS;
  dummyHash = undefined;
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

let dummyHash: Promise<string> | undefined;
let verifications = 0;

/**
 * How many argon2 verifications this process has run. An unknown login must run one as a wrong
 * password does (auth.test.ts counts them; passwords.test.ts compares their cost).
 */
export function passwordVerifications(): number {
  return verifications;
}

/**
 * Verifies a password; with no stored hash it still verifies against a dummy one, so an
 * unknown login takes as long as a wrong password and the answer reveals nothing.
 */
export async function verifyPassword(storedHash: string | undefined, password: string): Promise<boolean> {
  dummyHash ??= hashPassword("not-a-real-password-Aa1!");
  const target = storedHash ?? (await dummyHash);
  let ok = false;
  try {
    verifications += 1;
    ok = await verify(target, password);
  } catch {
    ok = false;
  }
  return ok && storedHash !== undefined;
}

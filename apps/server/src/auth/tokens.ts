import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ErrorCode, TokenClaims } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { EncryptJWT, jwtDecrypt, jwtVerify, SignJWT } from "jose";
import type { Db } from "../db/client";
import { appMeta } from "../db/schema";
import { AppError } from "../errors";

/** The app_meta row of a generated token secret (PostgreSQL). */
export const JWT_SECRET_KEY = "jwt_secret";

export interface TokenSubject {
  id: number;
  name: string;
  surname: string;
  roles: TokenClaims["roles"];
  login: string;
  facilityId: number | null;
  language: TokenClaims["lng"];
  tokenVersion: number;
  /** Epoch seconds of the login this session began with (claim auth_time). */
  authTime: number;
}

/** Checked tokens kept per server (tokens.ts verify); the oldest leave first. */
const VERIFIED_MAX = 20_000;

/** Ids are PostgreSQL integers: a larger `sub` names nobody. */
const MAX_USER_ID = 2_147_483_647;

export interface VerifiedToken extends TokenClaims {
  ver: number;
}

export interface TokenService {
  sign(subject: TokenSubject): Promise<string>;
  /** Throws AppError 1010 for any token that is not ours, tampered, or expired. */
  verify(token: string): Promise<VerifiedToken>;
  /**
   * A short-lived value only this installation can read or make (single sign-on's transaction
   * cookie, issue 32): encrypted (A256GCM) with a key derived from the token secret for
   * `purpose`, so it is never a session token, nor one purpose's value another's.
   */
  seal(purpose: string, payload: Record<string, unknown>, seconds: number): Promise<string>;
  /** The payload of `seal`, or null when the value is not ours, not for `purpose`, or expired. */
  unseal(purpose: string, sealed: string): Promise<Record<string, unknown> | null>;
}

const purposeKey = (secret: Uint8Array, purpose: string) =>
  new Uint8Array(crypto.createHmac("sha256", secret).update(`carecampus sealed value: ${purpose}`).digest());

/**
 * HS256 tokens (decision 9). A session has an absolute lifetime: `maxSessionSeconds` after its
 * login (claim auth_time, carried on by every refresh) no token of it is accepted, however often
 * it was refreshed.
 */
export function createTokenService(
  secret: Uint8Array,
  lifetimeSeconds: number,
  now: () => Date,
  maxSessionSeconds: number,
): TokenService {
  /**
   * Tokens whose signature and claims were checked, with their expiry: a session's next requests
   * skip the HMAC (an asynchronous WebCrypto job each) and the claims' parsing. The same string
   * always checks the same way; expiry and the session's lifetime are checked on every use.
   */
  const verified = new Map<string, { claims: VerifiedToken; exp: number }>();
  const expired = () => new AppError(ErrorCode.sessionExpired, "Session expired");
  return {
    async seal(purpose, payload, seconds) {
      const iat = Math.floor(now().getTime() / 1000);
      return new EncryptJWT(payload)
        .setProtectedHeader({ alg: "dir", enc: "A256GCM", cty: purpose })
        .setIssuedAt(iat)
        .setExpirationTime(iat + seconds)
        .encrypt(purposeKey(secret, purpose));
    },
    async unseal(purpose, sealed) {
      try {
        const { payload } = await jwtDecrypt(sealed, purposeKey(secret, purpose), {
          currentDate: now(),
          requiredClaims: ["exp"],
          keyManagementAlgorithms: ["dir"],
          contentEncryptionAlgorithms: ["A256GCM"],
        });
        return payload as Record<string, unknown>;
      } catch {
        return null;
      }
    },
    async sign(s) {
      const iat = Math.floor(now().getTime() / 1000);
      const end = s.authTime + maxSessionSeconds;
      return new SignJWT({
        name: s.name,
        surname: s.surname,
        roles: s.roles,
        login: s.login,
        facility: s.facilityId,
        lng: s.language,
        ver: s.tokenVersion,
        auth_time: s.authTime,
      })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(String(s.id))
        .setIssuedAt(iat)
        .setExpirationTime(Math.min(iat + lifetimeSeconds, end))
        .sign(secret);
    },
    async verify(token) {
      const seconds = now().getTime() / 1000;
      const known = verified.get(token);
      if (known) {
        // As jose decides it: expired from the second `exp` names on.
        if (known.exp <= Math.floor(seconds) || seconds - known.claims.auth_time >= maxSessionSeconds) {
          verified.delete(token);
          throw expired();
        }
        return known.claims;
      }
      let checked: { claims: VerifiedToken; exp: number };
      try {
        const { payload } = await jwtVerify(token, secret, {
          algorithms: ["HS256"],
          typ: "JWT",
          currentDate: now(),
          requiredClaims: ["exp", "sub", "auth_time"],
        });
        // A token of ours has every claim in its form: a `sub` of digits, a numeric version.
        const claims = TokenClaims.safeParse(payload);
        if (!claims.success || typeof payload.ver !== "number" || Number(claims.data.sub) > MAX_USER_ID) {
          throw expired();
        }
        checked = { claims: { ...claims.data, ver: payload.ver }, exp: payload.exp as number };
      } catch {
        throw expired();
      }
      if (seconds - checked.claims.auth_time >= maxSessionSeconds) throw expired();
      if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value as string);
      verified.set(token, checked);
      return checked.claims;
    },
  };
}

/**
 * JWT_SECRET; else a secret generated once: on PostgreSQL in the database (every server on it
 * signs and checks with the same one, decision 18), on PGlite in the data directory.
 */
export async function loadSecret(
  configured: string | undefined,
  store: { dataDir: string; db?: Db },
): Promise<Uint8Array> {
  if (configured) return new TextEncoder().encode(configured);
  if (store.db) {
    // The first server to get here writes it; everyone, that one included, reads the stored one.
    await store.db
      .insert(appMeta)
      .values({ key: JWT_SECRET_KEY, value: crypto.randomBytes(48).toString("base64url") })
      .onConflictDoNothing();
    const [row] = await store.db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, JWT_SECRET_KEY));
    if (!row) throw new Error("The token secret could not be stored");
    return new TextEncoder().encode(row.value);
  }
  const file = path.join(store.dataDir, "jwt-secret");
  fs.mkdirSync(store.dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, crypto.randomBytes(48).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return new TextEncoder().encode(fs.readFileSync(file, "utf8").trim());
}

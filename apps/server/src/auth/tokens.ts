import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { ErrorCode, TokenClaims } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { errors, jwtVerify, SignJWT } from "jose";
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

/** Ids are PostgreSQL integers: a larger `sub` names nobody. */
const MAX_USER_ID = 2_147_483_647;

export interface VerifiedToken extends TokenClaims {
  ver: number;
}

export interface TokenService {
  sign(subject: TokenSubject): Promise<string>;
  /** Throws AppError 1010 for any token that is not ours, tampered, or expired. */
  verify(token: string): Promise<VerifiedToken>;
}

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
  return {
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
          throw new AppError(ErrorCode.sessionExpired, "Session expired");
        }
        const seconds = now().getTime() / 1000;
        if (seconds - claims.data.auth_time >= maxSessionSeconds) {
          throw new AppError(ErrorCode.sessionExpired, "Session expired");
        }
        return { ...claims.data, ver: payload.ver };
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (err instanceof errors.JOSEError) throw new AppError(ErrorCode.sessionExpired, "Session expired");
        throw new AppError(ErrorCode.sessionExpired, "Session expired");
      }
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

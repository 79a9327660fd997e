import crypto from "node:crypto";
import {
  ErrorCode,
  FACILITYLESS_ROLES,
  facilityRequirement,
  type LoginResponse,
  loginKey,
  loginProblem,
  ROLES,
  type Role,
} from "@carecampus/contract";
import { and, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import * as oidc from "openid-client";
import { currentMember } from "../access/scope";
import { recordAudit } from "../audit/record";
import { beginSession } from "../auth/service";
import type { Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { facilities, rateLimits, ssoIdentities, userRoles, users } from "../db/schema";
import type { LoginDeps } from "../deps";
import { AppError } from "../errors";
import { passwordKey } from "../security/limits";
import { hashPassword } from "../security/passwords";
import { assertRoomFor } from "../users/archive";
import { insertUser, isLoginTaken } from "../users/service";
import type { SsoProviders } from "./providers";
import type { SsoProvider } from "./settings";

/** The transaction cookie: which login it belongs to, its PKCE verifier, state and nonce (sealed, 10 minutes). */
export const SSO_COOKIE = "cc_sso";
const SSO_PURPOSE = "sso-login";
const TRANSACTION_SECONDS = 600;

export interface SsoDeps extends LoginDeps {
  providers: SsoProviders;
  /** MAX_USERS: a person created at their first login counts like any other. */
  maxUsers: number | undefined;
  /** PUBLIC_URL: the redirect URI is PUBLIC_URL/api/auth/sso/<id>/callback, exactly. */
  publicUrl: string;
}

/** user_roles.source of a role a provider's mapping gave: removed again only by that provider. */
export const ssoSource = (provider: SsoProvider) => `sso:${provider.id}`;

export const redirectUri = (publicUrl: string, provider: SsoProvider) =>
  `${publicUrl}/api/auth/sso/${provider.id}/callback`;

/** Step 1: the provider's authorization address and the sealed transaction for the cookie. */
export async function beginSsoLogin(
  deps: SsoDeps,
  provider: SsoProvider,
  redirect: string | undefined,
  appNonce: string | undefined,
): Promise<{ url: string; cookie: string }> {
  const config = await deps.providers.configOf(provider);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri(deps.publicUrl, provider),
    scope: provider.scopes,
    response_type: "code",
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  const cookie = await deps.tokens.seal(
    SSO_PURPOSE,
    { p: provider.id, s: state, n: nonce, v: verifier, r: redirect ?? "/", a: appNonce ?? "" },
    TRANSACTION_SECONDS,
  );
  return { url: url.href, cookie };
}

/** Why a callback was refused, for the security log (never a token or a code). */
export class SsoFailure extends AppError {
  constructor(
    code: ErrorCode,
    message: string,
    readonly reason: string,
  ) {
    super(code, message);
  }
}

const refused = (reason: string) =>
  new SsoFailure(ErrorCode.ssoRefused, "The single sign-on answer does not belong to a login begun here", reason);
const tokenInvalid = (reason: string) =>
  new SsoFailure(ErrorCode.ssoTokenInvalid, "The identity provider's ID token was refused", reason);
const noAccount = (reason: string) =>
  new SsoFailure(
    ErrorCode.ssoNoAccount,
    "There is no CareCampus account for this login that may be used. Please ask your administrator.",
    reason,
  );

/**
 * Step 2: the provider's answer. The transaction cookie must be this login's (provider and
 * state); openid-client then exchanges the code (with the PKCE verifier) and checks the ID
 * token (signature, issuer, audience, nonce, expiry). The person is found, linked or created,
 * their SSO roles re-synchronised, and a session begins.
 */
export async function finishSsoLogin(
  deps: SsoDeps,
  provider: SsoProvider,
  query: Record<string, unknown>,
  search: string,
  sealed: string | undefined,
): Promise<{ session: LoginResponse; redirect: string; appNonce: string }> {
  if (typeof query.error === "string") throw refused(`provider error: ${query.error.slice(0, 100)}`);
  const transaction = sealed ? await deps.tokens.unseal(SSO_PURPOSE, sealed) : null;
  if (!transaction) throw refused("no transaction cookie (none, expired or not ours)");
  if (transaction.p !== provider.id) throw refused("the transaction belongs to another provider");
  if (typeof query.state !== "string" || query.state !== transaction.s) throw refused("state mismatch");
  const config = await deps.providers.configOf(provider);
  let claims: oidc.IDToken;
  try {
    const tokens = await oidc.authorizationCodeGrant(
      config,
      new URL(`${redirectUri(deps.publicUrl, provider)}${search}`),
      {
        pkceCodeVerifier: String(transaction.v),
        expectedState: String(transaction.s),
        expectedNonce: String(transaction.n),
        idTokenExpected: true,
      },
    );
    const idClaims = tokens.claims();
    if (!idClaims) throw tokenInvalid("no ID token");
    claims = idClaims;
  } catch (err) {
    throw classify(err, deps, provider);
  }
  const subject = subjectOf(provider, claims);
  // An address the provider does not vouch for is neither kept nor used to link (someone could claim another's).
  const claimedEmail = claims[provider.email_claim];
  const email = typeof claimedEmail === "string" && claims.email_verified === true ? claimedEmail.slice(0, 254) : null;
  const mapped = mappedRoles(provider, claims[provider.roles_claim]);
  const now = deps.now();
  const userId = await deps.db.transaction(async (tx) => {
    // Creations and links one at a time: the same person's two logins at once make one account.
    await lockForTransaction(tx, "users");
    const id = await personOf(tx, deps, provider, claims, subject, email, mapped, now);
    const facilityId = await refuseIfBarred(tx, provider, id, now);
    await syncRoles(tx, provider, id, facilityId, mapped, now);
    await tx
      .update(ssoIdentities)
      .set({ lastLoginAt: now })
      .where(and(eq(ssoIdentities.provider, provider.id), eq(ssoIdentities.subject, subject)));
    return id;
  });
  const session = await beginSession(deps, userId);
  if (!session) throw noAccount("the account is gone");
  return {
    session,
    redirect: typeof transaction.r === "string" ? transaction.r : "/",
    appNonce: typeof transaction.a === "string" ? transaction.a : "",
  };
}

/** openid-client's refusals, as the §8 errors: the provider's own error 400, a bad ID token 401, no answer 503. */
function classify(err: unknown, deps: SsoDeps, provider: SsoProvider): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof oidc.ResponseBodyError) return refused(`token endpoint: ${err.error}`);
  if (err instanceof oidc.AuthorizationResponseError) return refused(`authorization response: ${err.error}`);
  const code = (err as { code?: string }).code ?? "";
  // openid-client's checks of the ID token and the token response (issuer, audience, nonce, expiry, signature).
  if (/^OAUTH_(JWT|JWS|INVALID_RESPONSE|RESPONSE_IS_NOT_CONFORM)/.test(code)) {
    return tokenInvalid(`${code}: ${(err as Error).message}`);
  }
  // No answer, a broken connection, a timeout: asked again at the next login.
  deps.providers.forget(provider);
  return new SsoFailure(
    ErrorCode.ssoUnavailable,
    `The identity provider "${provider.name}" does not answer`,
    `${code || (err as Error).name}: ${(err as Error).message}`,
  );
}

/** The person's identity at the provider: its configured claims, each a non-empty string. */
function subjectOf(provider: SsoProvider, claims: oidc.IDToken): string {
  const parts = provider.subject_claims.map((name) => claims[name]);
  if (parts.some((v) => typeof v !== "string" || v === "")) {
    throw tokenInvalid(`the ID token lacks ${provider.subject_claims.join(" and ")}`);
  }
  return parts.map((v) => encodeURIComponent(String(v))).join(":");
}

/** The CareCampus roles the roles claim maps to (in the order of ROLES); none when nothing maps. */
export function mappedRoles(provider: SsoProvider, claim: unknown): Role[] {
  const values = Array.isArray(claim) ? claim : typeof claim === "string" ? [claim] : [];
  const found = new Set<Role>();
  for (const value of values) {
    if (typeof value !== "string" || !Object.hasOwn(provider.role_mapping, value)) continue;
    const roles = provider.role_mapping[value];
    for (const role of Array.isArray(roles) ? roles : [roles]) if (role) found.add(role);
  }
  return ROLES.filter((r) => found.has(r));
}

/** The linked account; else one linked by a verified e-mail; else a new one; else refused. */
async function personOf(
  tx: Tx,
  deps: SsoDeps,
  provider: SsoProvider,
  claims: oidc.IDToken,
  subject: string,
  email: string | null,
  mapped: Role[],
  now: Date,
): Promise<number> {
  const [linked] = await tx
    .select({ userId: ssoIdentities.userId })
    .from(ssoIdentities)
    .where(and(eq(ssoIdentities.provider, provider.id), eq(ssoIdentities.subject, subject)));
  if (linked) return linked.userId;
  const link = async (userId: number) => {
    await tx.insert(ssoIdentities).values({ provider: provider.id, subject, userId, createdAt: now });
  };
  const facilityId = await facilityOf(tx, provider, claims);
  if (provider.link_by_email && email) {
    const same = await tx
      .select({ id: users.id, facilityId: users.facilityId })
      .from(users)
      .where(and(sql`lower(${users.email}) = ${email.toLowerCase()}`, currentMember, isNull(users.erasedAt)))
      .limit(2);
    // Exactly one account with the address, in the provider's facility when it has one, and
    // linked to no identity yet (an account made by another login is never taken over).
    const only = same.length === 1 ? same[0] : undefined;
    const taken =
      only &&
      (await tx.select({ userId: ssoIdentities.userId }).from(ssoIdentities).where(eq(ssoIdentities.userId, only.id)))
        .length > 0;
    if (only && !taken && (provider.facility === null || only.facilityId === facilityId)) {
      await link(only.id);
      await recordAudit(
        tx,
        {
          kind: "user.sso_linked",
          actor: null,
          facilityId: only.facilityId,
          subjectId: only.id,
          data: { provider: provider.id },
        },
        now,
      );
      return only.id;
    }
  }
  if (!provider.create_users) throw noAccount("not linked, and the provider creates nobody");
  const roles = mapped.length > 0 ? mapped : [...provider.default_roles];
  const requirement = facilityRequirement(roles);
  if (requirement === "conflict") throw noAccount(`the mapped roles ${roles.join(", ")} cannot be held together`);
  const needsFacility = requirement === "required";
  if (needsFacility && facilityId === null) throw noAccount("no facility for a new person");
  try {
    await assertRoomFor(tx, deps.maxUsers, 1);
  } catch (err) {
    if (err instanceof AppError) throw noAccount("the installation's user limit (MAX_USERS) is reached");
    throw err;
  }
  const name = claimText(claims.given_name) ?? claimText(claims.name)?.split(" ")[0] ?? "SSO";
  const surname = claimText(claims.family_name) ?? claimText(claims.name)?.split(" ").slice(1).join(" ") ?? "";
  const login = await freeLogin(tx, email, name, surname);
  // A password nobody knows: the person logs in through the provider (an administrator may set one).
  const password = `${crypto.randomBytes(24).toString("base64url")}aA1!`;
  const id = await insertUser(
    tx,
    {
      login,
      name,
      surname,
      password,
      roles,
      facilityId: needsFacility ? facilityId : null,
      email,
      salutation: "-",
      createdAt: now,
    },
    await hashPassword(password),
  );
  if (mapped.length > 0) {
    await tx
      .update(userRoles)
      .set({ source: ssoSource(provider) })
      .where(eq(userRoles.userId, id));
  }
  await link(id);
  await recordAudit(
    tx,
    {
      kind: "user.sso_created",
      actor: null,
      facilityId: needsFacility ? facilityId : null,
      subjectId: id,
      data: { provider: provider.id, roles, facility: needsFacility ? facilityId : null },
      personal: { subject: `${name} ${surname}`.trim(), login, email },
    },
    now,
  );
  return id;
}

const claimText = (v: unknown) => (typeof v === "string" && v.trim() !== "" ? v.trim().slice(0, 100) : undefined);

/** The provider's facility (by name), or for a provider of the whole installation the one its facility claim names. */
async function facilityOf(tx: Tx, provider: SsoProvider, claims: oidc.IDToken): Promise<number | null> {
  const name = provider.facility ?? (provider.facility_claim ? claimText(claims[provider.facility_claim]) : undefined);
  if (!name) return null;
  const [row] = await tx
    .select({ id: facilities.id })
    .from(facilities)
    .where(sql`lower(${facilities.name}) = ${name.toLowerCase()}`);
  if (!row && provider.facility !== null)
    throw noAccount(`the configured facility "${provider.facility}" does not exist`);
  return row?.id ?? null;
}

/** A login not in use: the e-mail address, else name.surname, with a number where taken. */
async function freeLogin(tx: Tx, email: string | null, name: string, surname: string): Promise<string> {
  const plain = (s: string) =>
    s
      .normalize("NFKD")
      .replace(/[^\p{L}\p{N}.@_-]/gu, "")
      .toLowerCase();
  const base =
    (email && !loginProblem(email) && email.length <= 90 ? email : plain(`${name}.${surname}`).slice(0, 90)) || "sso";
  for (let n = 1; n < 1000; n++) {
    const login = n === 1 ? base : `${base}-${n}`;
    if (!loginProblem(login) && !(await isLoginTaken(tx, login))) return login;
  }
  return `sso-${crypto.randomBytes(6).toString("hex")}-${loginKey(base).slice(0, 40)}`;
}

/**
 * An archived or erased person, one whose account is locked after failed passwords, and one a
 * facility's provider names who now belongs to another facility, is refused.
 */
async function refuseIfBarred(tx: Tx, provider: SsoProvider, userId: number, now: Date): Promise<number | null> {
  const [person] = await tx
    .select({
      archivedAt: users.archivedAt,
      erasedAt: users.erasedAt,
      facilityId: users.facilityId,
      facility: facilities.name,
    })
    .from(users)
    .leftJoin(facilities, eq(facilities.id, users.facilityId))
    .where(eq(users.id, userId));
  if (!person || person.archivedAt || person.erasedAt) throw noAccount("archived or erased");
  if (provider.facility !== null && person.facility?.toLowerCase() !== provider.facility.toLowerCase()) {
    throw noAccount("the person belongs to another facility than the provider's");
  }
  const [lock] = await tx
    .select({ key: rateLimits.key })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, passwordKey(userId, "")), gt(rateLimits.blockedUntil, now)));
  if (lock) throw noAccount("the account is locked");
  return person.facilityId;
}

/**
 * The roles from the mapping, as they are now: a mapped role the person lacks is added (marked
 * as this provider's); a role this provider gave that it no longer maps is removed; a role given
 * by hand, or by another provider, is never touched. Roles that cannot stand beside the person's
 * facility (or its absence) are not given. A person is never left without a role: an employee
 * of a facility keeps 'employee'; anyone else is refused.
 */
async function syncRoles(
  tx: Tx,
  provider: SsoProvider,
  userId: number,
  facilityId: number | null,
  mapped: Role[],
  now: Date,
): Promise<void> {
  const source = ssoSource(provider);
  const held = await tx
    .select({ role: userRoles.role, source: userRoles.source })
    .from(userRoles)
    .where(eq(userRoles.userId, userId));
  const hasFacility = facilityId !== null;
  const possible = mapped.filter((r) => FACILITYLESS_ROLES.includes(r) !== hasFacility);
  const added = possible.filter((r) => !held.some((h) => h.role === r));
  let removed = held
    .filter((h) => h.source === source && !possible.includes(h.role as Role))
    .map((h) => h.role as Role);
  if (held.length - removed.length + added.length === 0) {
    if (!hasFacility || !removed.includes("employee")) throw noAccount("no role left");
    removed = removed.filter((r) => r !== "employee");
  }
  if (added.length === 0 && removed.length === 0) return;
  if (added.length > 0) {
    await tx.insert(userRoles).values(added.map((role) => ({ userId, role, source })));
  }
  if (removed.length > 0) {
    await tx.delete(userRoles).where(and(eq(userRoles.userId, userId), inArray(userRoles.role, removed)));
  }
  await recordAudit(
    tx,
    {
      kind: "user.sso_roles",
      actor: null,
      facilityId,
      subjectId: userId,
      data: { provider: provider.id, added, removed },
    },
    now,
  );
}

/** The provider's end-session address (RP-initiated logout), or null where it offers none or end_session is off. */
export async function endSessionUrl(deps: SsoDeps, provider: SsoProvider): Promise<string | null> {
  if (!provider.end_session) return null;
  let config: oidc.Configuration;
  try {
    config = await deps.providers.configOf(provider);
  } catch {
    return null;
  }
  if (!config.serverMetadata().end_session_endpoint) return null;
  return oidc.buildEndSessionUrl(config, {
    client_id: provider.client_id,
    post_logout_redirect_uri: `${deps.publicUrl}/login`,
  }).href;
}

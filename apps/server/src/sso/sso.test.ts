import { ErrorCode, type LoginResponse } from "@carecampus/contract";
import { type OidcPeer, type PeerAccount, startOidcPeer } from "@carecampus/oidc-peer";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { bearer, createFacility, createTestApp, createUser, login, type TestContext } from "../../test/helpers";
import { auditLog, rateLimits, ssoIdentities, userRoles, users } from "../db/schema";
import { passwordKey } from "../security/limits";
import { parseSsoProviders } from "./settings";

const PUBLIC_URL = "http://127.0.0.1:9";
const SECRET = "client-secret-of-carecampus";

let peer: OidcPeer;
let ctx: TestContext;
let facility: { id: number; name: string };

const account = (login: string, claims: Record<string, unknown>): PeerAccount => ({
  login,
  password: "Peer-1234!",
  claims: { tid: "tenant-1", email_verified: true, ...claims },
});

const provider = (extra: Record<string, unknown> = {}) => ({
  id: "acme",
  name: "Acme ID",
  issuer: peer.issuer,
  client_id: "carecampus",
  client_secret: SECRET,
  facility: facility.name,
  subject_claims: ["tid", "oid"],
  role_mapping: { "CareCampus.Supervisor": ["supervisor", "employee"] },
  timeout_seconds: 2,
  ...extra,
});

/** A cookie jar of one browser at the peer. */
class Jar {
  cookies = new Map<string, string>();
  header() {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  take(res: Response) {
    for (const c of res.headers.getSetCookie()) {
      const [pair = ""] = c.split(";");
      const i = pair.indexOf("=");
      this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
    }
  }
}

/**
 * Through the peer as a browser would: the authorization address, its login form filled in, and
 * on to the redirect back to CareCampus (not followed): that address.
 */
async function atPeer(authorizationUrl: string, who: string, password = "Peer-1234!"): Promise<URL> {
  const jar = new Jar();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop++) {
    const res = await fetch(url, { redirect: "manual", headers: { cookie: jar.header() } });
    jar.take(res);
    const location = res.headers.get("location");
    if (location) {
      const next = new URL(location, url);
      if (next.href.startsWith(PUBLIC_URL)) return next;
      url = next.href;
      continue;
    }
    const html = await res.text();
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!action) throw new Error(`no login form at ${url}: ${res.status} ${html.slice(0, 200)}`);
    const posted = await fetch(new URL(action, url), {
      method: "POST",
      redirect: "manual",
      headers: { cookie: jar.header(), "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ login: who, password }).toString(),
    });
    jar.take(posted);
    const after = posted.headers.get("location");
    if (!after) throw new Error(`the peer refused the login: ${posted.status}`);
    url = new URL(after, url).href;
  }
  throw new Error("too many redirects");
}

/** Begins a login at CareCampus: the provider's address and the transaction cookie. */
async function begin(app = ctx, redirect?: string) {
  const query = new URLSearchParams({ app_nonce: "app-nonce-of-the-tab-0123", ...(redirect ? { redirect } : {}) });
  const res = await app.app.inject({ method: "GET", url: `/api/auth/sso/acme/login?${query}` });
  expect(res.statusCode, res.body).toBe(302);
  const cookie = String(res.headers["set-cookie"]).split(";")[0] as string;
  return { location: String(res.headers.location), cookie, setCookie: String(res.headers["set-cookie"]) };
}

async function callback(callbackUrl: URL, cookie: string, app = ctx, accept = "application/json") {
  return app.app.inject({
    method: "GET",
    url: `${callbackUrl.pathname}${callbackUrl.search}`,
    headers: { cookie, accept },
  });
}

/** A whole login of `who`: the session from the fragment of CareCampus's redirect. */
async function ssoLogin(who: string, app = ctx, redirect?: string) {
  const started = await begin(app, redirect);
  const back = await atPeer(started.location, who);
  const res = await callback(back, started.cookie, app);
  return { res, back, started };
}

function sessionOf(res: { statusCode: number; headers: Record<string, unknown>; body: string }) {
  expect(res.statusCode, res.body).toBe(302);
  const location = new URL(String(res.headers.location), "http://x");
  const fragment = new URLSearchParams(location.hash.slice(1));
  return {
    path: location.pathname,
    token: fragment.get("sso_token") as string,
    provider: fragment.get("sso"),
    nonce: fragment.get("sso_nonce"),
  };
}

async function me(token: string, app = ctx) {
  const claims = JSON.parse(Buffer.from(token.split(".")[1] as string, "base64url").toString()) as { sub: string };
  const res = await app.app.inject({ method: "GET", url: `/api/auth/users/${claims.sub}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as LoginResponse["user"];
}

const sources = async (userId: number) =>
  Object.fromEntries(
    (
      await ctx.deps.database.db
        .select({ role: userRoles.role, source: userRoles.source })
        .from(userRoles)
        .where(eq(userRoles.userId, userId))
    ).map((r) => [r.role, r.source]),
  );

const auditKinds = async (userId: number) =>
  (
    await ctx.deps.database.db
      .select({ kind: auditLog.kind })
      .from(auditLog)
      .where(eq(auditLog.subjectId, userId))
      .orderBy(auditLog.id)
  ).map((r) => r.kind);

const userCount = async () => (await ctx.deps.database.db.select({ id: users.id }).from(users)).length;

beforeAll(async () => {
  peer = await startOidcPeer({
    clients: [
      {
        client_id: "carecampus",
        client_secret: SECRET,
        redirect_uris: [`${PUBLIC_URL}/api/auth/sso/acme/callback`],
        post_logout_redirect_uris: [`${PUBLIC_URL}/login`],
      },
    ],
    accounts: [
      account("anna", {
        oid: "oid-anna",
        email: "anna@example.org",
        given_name: "Anna",
        family_name: "Arndt",
        roles: [],
      }),
      account("sven", {
        oid: "oid-sven",
        email: "sven@example.org",
        given_name: "Sven",
        family_name: "Sauer",
        roles: ["CareCampus.Supervisor"],
      }),
      account("nora", { oid: "oid-nora", email: "nora@example.org", given_name: "Nora", family_name: "Neu" }),
      account("lisa", { oid: "oid-lisa", email: "Lisa.Local@example.org", email_verified: false, given_name: "Lisa" }),
    ],
  });
  // The provider names the facility; each app of this file makes it.
  facility = { id: 0, name: `Haus SSO ${Date.now()}` };
  ctx = await createTestApp({ env: { PUBLIC_URL, SSO_PROVIDERS: JSON.stringify([provider()]) } });
  facility = await createFacility(ctx, facility.name);
});

afterAll(async () => {
  await ctx?.close();
  await peer?.close();
});

describe("single sign-on (issue 32)", () => {
  it("lists the providers for the login page, without a login", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/auth/sso/providers" });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ providers: [{ id: "acme", name: "Acme ID", available: true }] });
  });

  it("sends the browser to the provider with PKCE S256, state, nonce and the exact redirect URI", async () => {
    const { location, setCookie } = await begin(ctx, "/profile");
    const url = new URL(location);
    expect(url.origin).toBe(peer.issuer);
    const q = url.searchParams;
    expect(q.get("response_type")).toBe("code");
    expect(q.get("client_id")).toBe("carecampus");
    expect(q.get("redirect_uri")).toBe(`${PUBLIC_URL}/api/auth/sso/acme/callback`);
    expect(q.get("code_challenge_method")).toBe("S256");
    expect(q.get("code_challenge")).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(q.get("state")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get("nonce")).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(q.get("scope")?.split(" ")).toContain("openid");
    // The transaction stays in an encrypted cookie only the SSO addresses get, never a script.
    expect(setCookie).toMatch(/^cc_sso=[^;]+; Path=\/api\/auth\/sso; HttpOnly; SameSite=Lax; Max-Age=600/);
    expect(setCookie).not.toContain(q.get("state") as string);
  });

  it("creates a new person in the provider's facility with the mapped roles, and returns to the page wanted", async () => {
    const before = await userCount();
    const { res } = await ssoLogin("sven", ctx, "/profile");
    const session = sessionOf(res);
    expect(session.path).toBe("/profile");
    expect(session.provider).toBe("acme");
    expect(session.nonce).toBe("app-nonce-of-the-tab-0123");
    const user = await me(session.token);
    expect(user).toMatchObject({
      name: "Sven",
      surname: "Sauer",
      login: "sven@example.org",
      email: "sven@example.org",
    });
    expect(user.facility?.id).toBe(facility.id);
    expect([...user.roles].sort()).toEqual(["employee", "supervisor"]);
    expect(await sources(user.id)).toEqual({ employee: "sso:acme", supervisor: "sso:acme" });
    expect(await userCount()).toBe(before + 1);
    expect(await auditKinds(user.id)).toContain("user.sso_created");
    // The second login finds the same person (by tid and oid), creates nobody.
    const again = sessionOf((await ssoLogin("sven")).res);
    expect((await me(again.token)).id).toBe(user.id);
    expect(await userCount()).toBe(before + 1);
  });

  it("re-synchronises the SSO roles at each login and keeps a role given by hand", async () => {
    const first = sessionOf((await ssoLogin("anna")).res);
    const anna = await me(first.token);
    expect(anna.roles).toEqual(["employee"]);
    // The provider now gives her the supervisor role; an administrator gives her 'administrator' by hand.
    const claims = peer.accounts.find((a) => a.login === "anna")?.claims as Record<string, unknown>;
    claims.roles = ["CareCampus.Supervisor"];
    await ctx.deps.database.db.insert(userRoles).values({ userId: anna.id, role: "administrator" });
    const second = await me(sessionOf((await ssoLogin("anna")).res).token);
    expect([...second.roles].sort()).toEqual(["administrator", "employee", "supervisor"]);
    expect((await sources(anna.id)).supervisor).toBe("sso:acme");
    // Taken away at the provider: the SSO role goes, the hand-given ones stay.
    claims.roles = [];
    const third = await me(sessionOf((await ssoLogin("anna")).res).token);
    expect([...third.roles].sort()).toEqual(["administrator", "employee"]);
    expect(await auditKinds(anna.id)).toEqual(expect.arrayContaining(["user.sso_created", "user.sso_roles"]));
    // A person whose provider roles are all withdrawn keeps being an employee of the facility.
    const svenClaims = peer.accounts.find((a) => a.login === "sven")?.claims as Record<string, unknown>;
    const sven = await me(sessionOf((await ssoLogin("sven")).res).token);
    svenClaims.roles = [];
    try {
      expect((await me(sessionOf((await ssoLogin("sven")).res).token)).roles).toEqual(["employee"]);
      expect(await sources(sven.id)).toEqual({ employee: "sso:acme" });
      svenClaims.roles = ["CareCampus.Supervisor"];
      expect([...(await me(sessionOf((await ssoLogin("sven")).res).token)).roles].sort()).toEqual([
        "employee",
        "supervisor",
      ]);
    } finally {
      svenClaims.roles = ["CareCampus.Supervisor"];
    }
    const [entry] = await ctx.deps.database.db
      .select({ data: auditLog.data })
      .from(auditLog)
      .where(and(eq(auditLog.subjectId, anna.id), eq(auditLog.kind, "user.sso_roles")))
      .orderBy(auditLog.id);
    expect(entry?.data).toMatchObject({ provider: "acme", added: ["supervisor"], removed: [] });
  });

  it("links an existing account by e-mail only when the provider vouches for it and linking is on", async () => {
    const strict = await createTestApp({
      env: {
        PUBLIC_URL,
        SSO_PROVIDERS: JSON.stringify([provider({ link_by_email: true, create_users: false })]),
      },
    });
    try {
      const f = await createFacility(strict, facility.name);
      const lisa = await createUser(strict, ["employee"], f.id, { email: "lisa.local@example.org" });
      // email_verified false: no link, and (creating nobody here) refused.
      const refusedRes = (await ssoLogin("lisa", strict)).res;
      expect(refusedRes.statusCode).toBe(403);
      expect(refusedRes.json()).toMatchObject({ error_code: ErrorCode.ssoNoAccount, status_code: 403 });
      expect(await strict.deps.database.db.select().from(ssoIdentities)).toEqual([]);
      // Verified now: linked to the existing account.
      const lisaClaims = peer.accounts.find((a) => a.login === "lisa")?.claims as Record<string, unknown>;
      lisaClaims.email_verified = true;
      try {
        const linked = await me(sessionOf((await ssoLogin("lisa", strict)).res).token, strict);
        expect(linked.id).toBe(lisa.id);
        const kinds = await strict.deps.database.db
          .select({ kind: auditLog.kind })
          .from(auditLog)
          .where(eq(auditLog.subjectId, lisa.id));
        expect(kinds.map((k) => k.kind)).toContain("user.sso_linked");
        // An account linked to an identity already is never taken over by another one with the address.
        const other = peer.accounts.find((a) => a.login === "anna")?.claims as Record<string, unknown>;
        const annaEmail = other.email;
        other.email = "lisa.local@example.org";
        try {
          const again = await ssoLogin("anna", strict);
          expect(again.res.statusCode).toBe(403);
        } finally {
          other.email = annaEmail;
        }
      } finally {
        lisaClaims.email_verified = false;
      }
    } finally {
      await strict.close();
    }
  });

  it("keeps no e-mail address the provider does not vouch for", async () => {
    const lisa = await me(sessionOf((await ssoLogin("lisa")).res).token);
    expect(lisa.email).toBeNull();
    expect(lisa.login).not.toContain("@");
  });

  it("refuses a facility's provider for a person now in another facility, and beyond the user limit", async () => {
    const moved = await me(sessionOf((await ssoLogin("nora")).res).token);
    const elsewhere = await createFacility(ctx);
    await ctx.deps.database.db.update(users).set({ facilityId: elsewhere.id }).where(eq(users.id, moved.id));
    const res = (await ssoLogin("nora")).res;
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.ssoNoAccount });
    await ctx.deps.database.db.update(users).set({ facilityId: facility.id }).where(eq(users.id, moved.id));
    // MAX_USERS: a new person counts like any other.
    const full = await createTestApp({
      env: { PUBLIC_URL, MAX_USERS: "1", SSO_PROVIDERS: JSON.stringify([provider()]) },
    });
    try {
      await createFacility(full, facility.name);
      await createUser(full, ["superchris"], null);
      const refused = (await ssoLogin("sven", full)).res;
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toMatchObject({ error_code: ErrorCode.ssoNoAccount });
    } finally {
      await full.close();
    }
  });

  it("refuses an archived person even with a valid provider login", async () => {
    const nora = await me(sessionOf((await ssoLogin("nora")).res).token);
    await ctx.deps.database.db.update(users).set({ archivedAt: new Date() }).where(eq(users.id, nora.id));
    const { res } = await ssoLogin("nora");
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.ssoNoAccount });
    expect(res.headers.location).toBeUndefined();
  });

  it("refuses a person whose account is locked after failed passwords", async () => {
    const first = await me(sessionOf((await ssoLogin("sven")).res).token);
    const db = ctx.deps.database.db;
    await db.insert(rateLimits).values({
      key: passwordKey(first.id, ""),
      hits: 10,
      windowStart: new Date(),
      blockedUntil: new Date(Date.now() + 3_600_000),
    });
    try {
      const { res } = await ssoLogin("sven");
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.ssoNoAccount });
    } finally {
      await db.delete(rateLimits).where(eq(rateLimits.key, passwordKey(first.id, "")));
    }
    expect(sessionOf((await ssoLogin("sven")).res).token).toBeTruthy();
  });

  it("refuses a tampered state, a replayed code, another issuer's and an expired ID token, logging nobody in", async () => {
    const before = await userCount();
    // Tampered state.
    const started = await begin();
    const back = await atPeer(started.location, "sven");
    const tampered = new URL(back);
    tampered.searchParams.set("state", "forged-state-of-an-attacker");
    const res1 = await callback(tampered, started.cookie);
    expect(res1.statusCode).toBe(400);
    expect(res1.json()).toMatchObject({ error_code: ErrorCode.ssoRefused, status_code: 400 });
    // No transaction cookie at all (another browser).
    expect((await callback(back, "")).statusCode).toBe(400);
    // The real code once, then replayed with the same cookie: the provider refuses it.
    const ok = await callback(back, started.cookie);
    expect(ok.statusCode).toBe(302);
    const replay = await callback(back, started.cookie);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ error_code: ErrorCode.ssoRefused });
    for (const mischief of ["issuer", "expired"] as const) {
      peer.setMischief(mischief);
      try {
        const { res } = await ssoLogin("sven");
        expect(res.statusCode, mischief).toBe(401);
        expect(res.json()).toMatchObject({ error_code: ErrorCode.ssoTokenInvalid, status_code: 401 });
        expect(res.body).not.toContain("eyJ");
      } finally {
        peer.setMischief(null);
      }
    }
    expect(await userCount()).toBe(before);
  });

  it("takes a browser back to the login page, which names the refusal", async () => {
    const started = await begin();
    const back = await atPeer(started.location, "sven");
    back.searchParams.set("state", "forged");
    const res = await callback(back, started.cookie, ctx, "text/html,application/xhtml+xml");
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/login?sso_error=${ErrorCode.ssoRefused}`);
    // A malformed answer, refused before the handler: the browser goes back to the login page too,
    // a script gets the §8 error.
    const malformed = "/api/auth/sso/acme/callback?code=a&code=b&state=x";
    const page = await ctx.app.inject({ method: "GET", url: malformed, headers: { accept: "text/html" } });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe(`/login?sso_error=${ErrorCode.ssoRefused}`);
    const script = await ctx.app.inject({ method: "GET", url: malformed, headers: { accept: "application/json" } });
    expect(script.statusCode).toBe(400);
    expect(script.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
  });

  it("connects to nobody but the configured provider", async () => {
    const fresh = await createTestApp({ env: { PUBLIC_URL, SSO_PROVIDERS: JSON.stringify([provider()]) } });
    await createFacility(fresh, facility.name);
    const spy = vi.spyOn(globalThis, "fetch");
    try {
      const calls = spy.mock.calls;
      const mark = calls.length;
      const started = await begin(fresh);
      const seenByApp = calls.slice(mark).map(([u]) => String(u instanceof Request ? u.url : u));
      const back = await atPeer(started.location, "sven");
      const mark2 = calls.length;
      expect(sessionOf(await callback(back, started.cookie, fresh)).token).toBeTruthy();
      seenByApp.push(...calls.slice(mark2).map(([u]) => String(u instanceof Request ? u.url : u)));
      expect(seenByApp.length).toBeGreaterThan(0);
      for (const u of seenByApp) expect(new URL(u).origin).toBe(peer.issuer);
    } finally {
      spy.mockRestore();
      await fresh.close();
    }
  });

  it("never follows a discovery document to another origin", async () => {
    peer.setMischief("foreign");
    const fresh = await createTestApp({ env: { PUBLIC_URL, SSO_PROVIDERS: JSON.stringify([provider()]) } });
    await createFacility(fresh, facility.name);
    const spy = vi.spyOn(globalThis, "fetch");
    try {
      const started = await begin(fresh);
      const back = await atPeer(started.location, "sven");
      const res = await callback(back, started.cookie, fresh);
      expect(res.statusCode).not.toBe(302);
      expect(res.statusCode).toBeLessThan(500 + 4);
      const origins = spy.mock.calls.map(([u]) => new URL(String(u instanceof Request ? u.url : u)).origin);
      expect(origins).not.toContain("http://127.0.0.1:1");
    } finally {
      spy.mockRestore();
      peer.setMischief(null);
      await fresh.close();
    }
  });

  /** An app whose provider is `down` (connections closed) or hanging while `check` runs. */
  async function withProviderOut(how: "down" | "hang", check: (app: TestContext) => Promise<void>) {
    const app = await createTestApp({ env: { PUBLIC_URL, SSO_PROVIDERS: JSON.stringify([provider()]) } });
    const set = (on: boolean) => (how === "down" ? peer.setDown(on) : peer.setHang(on));
    set(true);
    try {
      const started = Date.now();
      const list = await app.app.inject({ method: "GET", url: "/api/auth/sso/providers" });
      // timeout_seconds is 2 here.
      expect(Date.now() - started).toBeLessThan(4_500);
      expect(list.json()).toEqual({ providers: [{ id: "acme", name: "Acme ID", available: false }] });
      await check(app);
    } finally {
      set(false);
      await app.close();
    }
  }

  it("a provider that does not answer: unavailable within seconds, its login 503, the password login works", async () => {
    await withProviderOut("down", async (down) => {
      const res = await down.app.inject({ method: "GET", url: "/api/auth/sso/acme/login" });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error_code: ErrorCode.ssoUnavailable, status_code: 503 });
      const local = await createUser(down, ["employee"], null);
      expect(await login(down, local.login)).toBeTruthy();
    });
  });

  it("a provider that hangs is unavailable after its time limit, not later", async () => {
    await withProviderOut("hang", async () => {});
  });

  it("logging out ends the provider's session too (RP-initiated logout)", async () => {
    const res = await ctx.app.inject({ method: "GET", url: "/api/auth/sso/acme/logout" });
    expect(res.statusCode).toBe(302);
    const url = new URL(String(res.headers.location));
    expect(url.origin).toBe(peer.issuer);
    expect(url.searchParams.get("client_id")).toBe("carecampus");
    expect(url.searchParams.get("post_logout_redirect_uri")).toBe(`${PUBLIC_URL}/login`);
  });

  it("an unknown provider is 404; a redirect elsewhere is refused", async () => {
    const unknown = await ctx.app.inject({ method: "GET", url: "/api/auth/sso/nobody/login" });
    expect(unknown.statusCode).toBe(404);
    for (const redirect of [
      "//evil.example",
      "/\\evil.example",
      "/\t/evil.example",
      "/\n/evil.example",
      "https://evil.example/",
      "/a\r\nSet-Cookie: x=1",
      "/€",
    ]) {
      const away = await ctx.app.inject({
        method: "GET",
        url: `/api/auth/sso/acme/login?redirect=${encodeURIComponent(redirect)}`,
      });
      expect(away.statusCode, redirect).toBe(400);
      expect(away.json()).toMatchObject({ error_code: ErrorCode.validation });
    }
  });
});

describe("SSO settings", () => {
  const base = {
    id: "entra",
    name: "Microsoft",
    issuer: "https://login.microsoftonline.com/t/v2.0",
    client_id: "c",
    client_secret: "s",
  };
  it("takes a list or {providers}, with defaults", () => {
    const [p] = parseSsoProviders(JSON.stringify({ providers: [base] }), undefined);
    expect(p).toMatchObject({ scopes: "openid email profile", subject_claims: ["sub"], link_by_email: false });
  });
  it("refuses what would be unsafe or ambiguous, naming it", () => {
    expect(() => parseSsoProviders(JSON.stringify([{ ...base, issuer: "http://idp.example" }]), undefined)).toThrow(
      /issuer: must be https/,
    );
    expect(() => parseSsoProviders(JSON.stringify([base, base]), undefined)).toThrow(/given twice/);
    expect(() => parseSsoProviders(JSON.stringify([{ ...base, scopes: "email" }]), undefined)).toThrow(/openid/);
    expect(() => parseSsoProviders(JSON.stringify([{ ...base, roles: "x" }]), undefined)).toThrow(/roles/);
    expect(() => parseSsoProviders("{", undefined)).toThrow(/not JSON/);
    expect(() =>
      parseSsoProviders(
        JSON.stringify([{ ...base, facility: "Haus A", role_mapping: { x: "superchris" } }]),
        undefined,
      ),
    ).toThrow(/cannot give "superchris"/);
    expect(() => parseSsoProviders("[]", "/x")).toThrow(/not both/);
  });
});

import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import { ErrorCode } from "@carecampus/contract";
import { Bitstring } from "@digitalbazaar/bitstring";
import { contexts as credentialContexts } from "@digitalbazaar/credentials-context";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { contexts as dataIntegrityContexts } from "@digitalbazaar/data-integrity-context";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import { contexts as multikeyContexts } from "@digitalbazaar/multikey-context";
import * as vc from "@digitalbazaar/vc";
import { contexts as statusListContexts } from "@digitalbazaar/vc-bitstring-status-list-context";
import { contexts as didContexts } from "did-context";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { issueCertificate } from "../certificates/service";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { certificates, trainings, users } from "../db/schema";
import { loadIssuer, parseConfiguredKey, publishedKeys } from "./keys";
import { type CredentialDeps, setCredentialRevoked, verifyUploaded } from "./service";

/*
 * Issuing and verifying make no network request: every outbound connection but the test's own
 * database (127.0.0.1, a Unix socket) is refused and remembered, and the last test checks none was tried.
 */
const outbound: string[] = [];
const realConnect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  const first = args[0] as { host?: string; path?: string } | number | string;
  const host = typeof first === "object" && first !== null ? (first.path ? "unix" : first.host) : args[1];
  if (!["127.0.0.1", "localhost", "::1", "unix", undefined].includes(host as string | undefined)) {
    outbound.push(String(host));
    throw new Error(`No network in this test: ${String(host)}`);
  }
  return (realConnect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof net.Socket.prototype.connect;

const PUBLIC_URL = "https://campus.example:8443";
const DID = "did:web:campus.example%3A8443";
let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let trainingId: number;

async function certify(userId: number, at = ctx.deps.now()): Promise<number> {
  return ctx.deps.database.db.transaction((tx) =>
    issueCertificate(
      tx,
      userId,
      { id: trainingId, validityMonths: 12, points: 10, newest: null },
      at,
      ctx.deps.config.timeZone,
    ),
  );
}

const download = (id: number, token: string) =>
  ctx.app.inject({ method: "GET", url: `/api/certificates/${id}/credential?token=${token}` });

async function credentialOf(id: number): Promise<Record<string, unknown>> {
  const res = await download(id, cast.tokens.employee);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

const check = (credential: unknown) =>
  ctx.app.inject({ method: "POST", url: "/api/public/verify", payload: credential as object });

/**
 * A verifier of its own, built here from the context packages and the OB 3.0 file: it reads the
 * installation's DID document and status lists over the app's HTTP answers only.
 */
async function independentVerify(credential: Record<string, unknown>) {
  const did = (await ctx.app.inject({ method: "GET", url: "/.well-known/did.json" })).json();
  const known = new Map<string, unknown>([
    ...(credentialContexts as Map<string, unknown>),
    ...(dataIntegrityContexts as Map<string, unknown>),
    ...(multikeyContexts as Map<string, unknown>),
    ...(statusListContexts as Map<string, unknown>),
    ...(didContexts as Map<string, unknown>),
    [
      "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json",
      JSON.parse(fs.readFileSync(new URL("./contexts/ob-v3p0-context-3.0.3.json", import.meta.url), "utf8")),
    ],
    [did.id, did],
    ...did.verificationMethod.map((m: { id: string }) => [
      m.id,
      { "@context": "https://w3id.org/security/multikey/v1", ...m },
    ]),
  ]);
  const documentLoader = async (url: string) => {
    if (!known.has(url)) throw new Error(`unknown document ${url}`);
    return { contextUrl: null, documentUrl: url, document: known.get(url) };
  };
  let revoked: boolean | null = null;
  const result = await vc.verifyCredential({
    credential,
    suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
    documentLoader,
    now: new Date(credential.validFrom as string),
    checkStatus: async () => {
      const entry = credential.credentialStatus as { statusListCredential: string; statusListIndex: string };
      const path = new URL(entry.statusListCredential).pathname;
      const list = (await ctx.app.inject({ method: "GET", url: path })).json();
      const listCheck = await vc.verifyCredential({
        credential: list,
        suite: new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 }),
        documentLoader,
      });
      if (!listCheck.verified) return { verified: false };
      const bits = await Bitstring.decodeBits({ encoded: list.credentialSubject.encodedList.slice(1) });
      revoked = new Bitstring({ buffer: bits }).get(Number(entry.statusListIndex));
      return { verified: true };
    },
  });
  return { verified: result.verified as boolean, revoked };
}

beforeAll(async () => {
  ctx = await createTestApp({ env: { VERIFIABLE_CREDENTIALS: "true", PUBLIC_URL } });
  cast = await createCast(ctx);
  const db = ctx.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  const [t] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  trainingId = t?.id ?? 0;
});
afterAll(() => ctx.close());

describe("verifiable credentials (Open Badges 3.0)", () => {
  it("issues a signed OpenBadgeCredential that an independent verifier accepts, with no plain holder data", async () => {
    const id = await certify(cast.users.employee.id);
    const res = await download(id, cast.tokens.employee);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toMatch(/^application\/ld\+json/);
    expect(res.headers["content-disposition"]).toMatch(/^attachment; /);
    const credential = res.json();
    expect(credential.type).toEqual(["VerifiableCredential", "OpenBadgeCredential"]);
    expect(credential.issuer.id).toBe(DID);
    expect(credential.proof).toMatchObject({ type: "DataIntegrityProof", cryptosuite: "eddsa-rdfc-2022" });
    const [cert] = await ctx.deps.database.db.select().from(certificates).where(eq(certificates.id, id));
    expect(credential.validUntil).toBe(cert?.expiresAt.toISOString());
    expect(credential.credentialStatus).toMatchObject({
      type: "BitstringStatusListEntry",
      statusPurpose: "revocation",
    });
    // The holder: a salted hash of the login, which a third party can check when told the login.
    const identity = credential.credentialSubject.identifier[0];
    expect(identity.hashed).toBe(true);
    const login = cast.users.employee.login;
    expect(identity.identityHash).toBe(
      `sha256$${crypto
        .createHash("sha256")
        .update(login + identity.salt)
        .digest("hex")}`,
    );
    const [person] = await ctx.deps.database.db.select().from(users).where(eq(users.id, cast.users.employee.id));
    for (const value of [person?.login, person?.name, person?.surname, person?.email].filter(Boolean)) {
      expect(res.body).not.toContain(value as string);
    }
    // The same document on every download.
    expect((await download(id, cast.tokens.employee)).body).toBe(res.body);
    expect(await independentVerify(credential)).toEqual({ verified: true, revoked: false });
    const answer = (await check(credential)).json();
    expect(answer).toMatchObject({
      valid: true,
      checks: { signature: "ok", issuer: "ok", validity: "ok", status: "ok" },
      training: "Händehygiene",
    });
  });

  it("fails on one changed character", async () => {
    const credential = await credentialOf(await certify(cast.users.employee.id));
    const changed = structuredClone(credential) as {
      credentialSubject: { achievement: { name: string } };
      validUntil: string;
    };
    changed.credentialSubject.achievement.name = `${changed.credentialSubject.achievement.name.slice(0, -1)}x`;
    expect((await independentVerify(changed as never)).verified).toBe(false);
    const answer = (await check(changed)).json();
    expect(answer.valid).toBe(false);
    expect(answer.checks.signature).toBe("failed");
    // A later expiry written in is caught the same way.
    const extended = { ...credential, validUntil: "2099-01-01T00:00:00.000Z" };
    expect((await check(extended)).json().checks.signature).toBe("failed");
  });

  it("sets the status bit on revocation: the served list changes and the check says revoked", async () => {
    const first = await certify(cast.users.employee.id);
    const second = await certify(cast.users.employee.id);
    const a = await credentialOf(first);
    const b = await credentialOf(second);
    const listPath = new URL((a.credentialStatus as { statusListCredential: string }).statusListCredential).pathname;
    const before = (await ctx.app.inject({ method: "GET", url: listPath })).json();
    // The revoke slice's way: revoked_at set in the certificate's transaction.
    await ctx.deps.database.db.update(certificates).set({ revokedAt: new Date() }).where(eq(certificates.id, first));
    // The hook for the revoke transaction sets the credential's own mark.
    await ctx.deps.database.db.transaction((tx) => setCredentialRevoked(tx, second));
    const after = (await ctx.app.inject({ method: "GET", url: listPath })).json();
    expect(after.credentialSubject.encodedList).not.toBe(before.credentialSubject.encodedList);
    for (const credential of [a, b]) {
      // Still a good signature: only the status bit says revoked.
      expect(await independentVerify(credential)).toEqual({ verified: true, revoked: true });
      expect((await check(credential)).json()).toMatchObject({
        valid: false,
        checks: { signature: "ok", issuer: "ok", validity: "ok", status: "revoked" },
      });
    }
    // Others in the same list keep their bit clear.
    const other = await credentialOf(await certify(cast.users.employee.id));
    expect(await independentVerify(other)).toEqual({ verified: true, revoked: false });
  });

  it("keeps old credentials verifiable after a key rotation", async () => {
    const old = await credentialOf(await certify(cast.users.employee.id));
    const db = ctx.deps.database.db;
    const jwk = parseConfiguredKey(
      JSON.stringify({ kty: "OKP", crv: "Ed25519", d: crypto.randomBytes(32).toString("base64url") }),
    );
    const rotated = await loadIssuer(db, jwk, PUBLIC_URL);
    const deps: CredentialDeps = { db, now: ctx.deps.now, issuer: rotated };
    const keys = await publishedKeys(db, rotated.keyId, new Date());
    expect(keys[0]).toBe(rotated.keyPair.publicKeyMultibase);
    expect(keys).toContain((old.proof as { verificationMethod: string }).verificationMethod.split("#")[1]);
    expect(await verifyUploaded(deps, old)).toMatchObject({ valid: true, checks: { signature: "ok", issuer: "ok" } });
    // An old key whose credentials have all expired leaves did.json.
    expect(await publishedKeys(db, rotated.keyId, new Date("2999-01-01"))).toEqual([
      rotated.keyPair.publicKeyMultibase,
    ]);
  });

  it("accepts an upload, on the API and on the page /v/credential, in the reader's language", async () => {
    const credential = await credentialOf(await certify(cast.users.employee.id));
    const boundary = "----cc-test";
    const form = (text: string, field = "credential") =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="badge.json"\r\nContent-Type: application/json\r\n\r\n${text}\r\n--${boundary}--\r\n`;
    const headers = { "content-type": `multipart/form-data; boundary=${boundary}` };
    const api = await ctx.app.inject({
      method: "POST",
      url: "/api/public/verify",
      headers,
      payload: form(JSON.stringify(credential)),
    });
    expect(api.json()).toMatchObject({ valid: true });
    const en = await ctx.app.inject({
      method: "POST",
      url: "/v/credential",
      headers: { ...headers, "accept-language": "en-GB,en;q=0.9,de;q=0.5" },
      payload: form(JSON.stringify(credential)),
    });
    expect(en.statusCode).toBe(200);
    expect(en.body).toContain('<html lang="en"');
    expect(en.body).toContain("The credential is valid.");
    const de = await ctx.app.inject({ method: "POST", url: "/v/credential", headers, payload: form("not json") });
    expect(de.statusCode).toBe(400);
    expect(de.body).toContain("Die Datei ist kein lesbarer Nachweis");
    const page = await ctx.app.inject({ method: "GET", url: "/v/credential", headers: { "accept-language": "pt-BR" } });
    expect(page.body).toContain('enctype="multipart/form-data"');
    expect(page.body).toContain("Verificar um comprovante digital");
    expect(page.body).not.toContain("<script");
  });

  it("refuses bad input with the spec §8 body and serves only what the caller may see", async () => {
    const array = await ctx.app.inject({ method: "POST", url: "/api/public/verify", payload: [1, 2] });
    expect(array.statusCode).toBe(400);
    expect(array.json().error_code).toBe(ErrorCode.validation);
    const boundary = "x";
    const empty = await ctx.app.inject({
      method: "POST",
      url: "/api/public/verify",
      headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="other"\r\n\r\nhi\r\n--${boundary}--\r\n`,
    });
    expect(empty.statusCode, empty.body).toBe(400);
    expect(empty.json()).toMatchObject({
      error_code: ErrorCode.validation,
      message: expect.stringMatching(/no credential file/i),
    });
    const big = await ctx.app.inject({
      method: "POST",
      url: "/api/public/verify",
      payload: { x: "a".repeat(70 * 1024) },
    });
    expect(big.statusCode).toBe(413);
    // A forged issuer: not this installation.
    const credential = await credentialOf(await certify(cast.users.employee.id));
    expect((await check({ ...credential, issuer: { id: "did:web:evil.example" } })).json().checks.issuer).toBe(
      "unknown",
    );
    const id = await certify(cast.users.employee.id);
    expect((await download(id, cast.tokens.employeeB)).statusCode).toBe(404);
    expect((await download(id, cast.tokens.administratorB)).statusCode).toBe(404);
    expect((await download(id, cast.tokens.administrator)).statusCode).toBe(200);
    expect((await ctx.app.inject({ method: "GET", url: `/api/certificates/${id}/credential` })).statusCode).toBe(401);
    const list = await ctx.app.inject({
      method: "GET",
      url: `/api/users/${cast.users.employee.id}/credentials`,
      headers: bearer(cast.tokens.employee),
    });
    expect(list.json().certificates).toContain(id);
    expect((await ctx.app.inject({ method: "GET", url: "/api/public/status/999999" })).statusCode).toBe(404);
  });

  it("made no network request", () => {
    expect(outbound).toEqual([]);
  });
});

describe("with VERIFIABLE_CREDENTIALS off", () => {
  it("has no credentials, no DID document and lists none", async () => {
    const off = await createTestApp();
    try {
      const offCast = await createCast(off);
      const res = await off.app.inject({
        method: "GET",
        url: `/api/users/${offCast.users.employee.id}/credentials`,
        headers: bearer(offCast.tokens.employee),
      });
      expect(res.json()).toEqual({ certificates: [] });
      expect((await off.app.inject({ method: "GET", url: "/.well-known/did.json" })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});

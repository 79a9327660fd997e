import crypto from "node:crypto";
import { ErrorCode } from "@carecampus/contract";
import { Bitstring } from "@digitalbazaar/bitstring";
import { DataIntegrityProof } from "@digitalbazaar/data-integrity";
import { cryptosuite as eddsaRdfc2022 } from "@digitalbazaar/eddsa-rdfc-2022-cryptosuite";
import * as vc from "@digitalbazaar/vc";
import { and, asc, count, desc, eq, gte, isNotNull, isNull, or } from "drizzle-orm";
import { type Actor, assertMay, notFound } from "../access/policy";
import { issuedCertificateColumns, withCertificateContext } from "../db/certificates";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import {
  appMeta,
  certificateCredentials,
  certificates,
  credentialKeys,
  credentialStatusLists,
  users,
} from "../db/schema";
import { runTransaction } from "../db/transaction";
import { AppError } from "../errors";
import { MULTIKEY_V1, OB_V3, strictLoader, VC_V2 } from "./contexts";
import { didDocument, type Issuer, verificationMethod } from "./keys";

/** Bits of a status list: 131 072, the Bitstring Status List's minimum for group privacy. */
export const STATUS_LIST_SIZE = 131_072;
/** A list takes credentials until half its bits are used: random indexes stay cheap to find. */
const LIST_FILL = STATUS_LIST_SIZE / 2;
/** app_meta: the first certificate id issued while VERIFIABLE_CREDENTIALS was on. */
export const CREDENTIALS_FROM_META = "credentials_from_certificate";

/** What the credential calls need: the database, the clock and the installation's issuer. */
export interface CredentialDeps {
  db: Db;
  now: () => Date;
  issuer: Issuer;
}

/**
 * Certificates issued from now on get a credential (VERIFIABLE_CREDENTIALS): the first id is
 * recorded once, when the setting is first on, so certificates issued before stay without one.
 */
export async function markCredentialsStart(db: Db): Promise<number> {
  const [max] = await db.select({ id: certificates.id }).from(certificates).orderBy(desc(certificates.id)).limit(1);
  await db
    .insert(appMeta)
    .values({ key: CREDENTIALS_FROM_META, value: String((max?.id ?? 0) + 1) })
    .onConflictDoNothing();
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, CREDENTIALS_FROM_META));
  return Number(row?.value ?? 1);
}

async function credentialsFrom(db: Db | Tx): Promise<number> {
  const [row] = await db.select({ value: appMeta.value }).from(appMeta).where(eq(appMeta.key, CREDENTIALS_FROM_META));
  return row ? Number(row.value) : Number.POSITIVE_INFINITY;
}

/**
 * Revocation: the credential's status bit is set from now on (the served list changes). Call it
 * inside the revoking transaction; a certificate without a credential is left as it is. The
 * status list also reads certificates.revoked_at, so the bit is right either way.
 */
export async function setCredentialRevoked(tx: Tx, certificateId: number, at: Date = new Date()): Promise<void> {
  await tx
    .update(certificateCredentials)
    .set({ revokedAt: at })
    .where(and(eq(certificateCredentials.certificateId, certificateId), isNull(certificateCredentials.revokedAt)));
}

/**
 * The ids of a user's certificates that have a credential or get one when downloaded (none while
 * VERIFIABLE_CREDENTIALS is off), for the user and the staff allowed to see them.
 */
export async function credentialCertificates(db: Db, actor: Actor, userId: number, on: boolean): Promise<number[]> {
  const [user] = await db.select({ facilityId: users.facilityId }).from(users).where(eq(users.id, userId));
  if (!user) throw notFound("certificate.view");
  assertMay(actor, "certificate.view", { id: userId, facilityId: user.facilityId });
  const from = await credentialsFrom(db);
  if (!on || !Number.isFinite(from)) return [];
  const rows = await db
    .select({ id: certificates.id })
    .from(certificates)
    .leftJoin(certificateCredentials, eq(certificateCredentials.certificateId, certificates.id))
    .where(
      and(
        eq(certificates.userId, userId),
        or(
          isNotNull(certificateCredentials.certificateId),
          and(gte(certificates.id, from), isNull(certificates.revokedAt)),
        ),
      ),
    )
    .orderBy(asc(certificates.id));
  return rows.map((r) => r.id);
}

/**
 * A certificate with its holder, facility, training and topic, for its owner and the staff
 * allowed to see that user: one not to be seen is answered like a missing one (404/1011). Its
 * PDF (certificates/service.ts) and its credential print from it. It lives here, not in
 * certificates/, because certificates/ uses this folder (revocation sets the status bit).
 */
export async function viewCertificate(db: Db, actor: Actor, id: number) {
  const [row] = await withCertificateContext(db.select(issuedCertificateColumns).from(certificates).$dynamic()).where(
    eq(certificates.id, id),
  );
  if (!row) throw notFound("certificate.view");
  assertMay(actor, "certificate.view", { id: row.userId, facilityId: row.facilityId });
  return row;
}

function suite(issuer?: Issuer) {
  return issuer
    ? new DataIntegrityProof({ signer: issuer.keyPair.signer(), cryptosuite: eddsaRdfc2022 })
    : new DataIntegrityProof({ cryptosuite: eddsaRdfc2022 });
}

/** Signs a credential with the installation's current key; only bundled contexts are read. */
async function sign(issuer: Issuer, credential: Record<string, unknown>, at: Date) {
  return (await vc.issue({
    credential,
    suite: suite(issuer),
    documentLoader: strictLoader(),
    now: at,
  })) as Record<string, unknown>;
}

/** The address of a status list credential. */
export function statusListUrl(publicUrl: string, listId: number): string {
  return `${publicUrl}/api/public/status/${listId}`;
}

/** A deterministic urn:uuid of a name (the achievement of a training stays the same across credentials). */
function nameUuid(name: string): string {
  const h = crypto.createHash("sha256").update(name).digest("hex");
  return `urn:uuid:${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-8${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** A free random index of a list that still takes credentials (a new list when none does). */
async function allocateStatus(tx: Tx): Promise<{ listId: number; index: number }> {
  const [open] = await tx
    .select({ id: credentialStatusLists.id, used: count(certificateCredentials.certificateId) })
    .from(credentialStatusLists)
    .leftJoin(certificateCredentials, eq(certificateCredentials.statusListId, credentialStatusLists.id))
    .groupBy(credentialStatusLists.id)
    .orderBy(desc(credentialStatusLists.id))
    .limit(1);
  let listId = open && open.used < LIST_FILL ? open.id : null;
  if (listId === null) {
    const [row] = await tx
      .insert(credentialStatusLists)
      .values({ size: STATUS_LIST_SIZE })
      .returning({ id: credentialStatusLists.id });
    listId = (row as { id: number }).id;
  }
  // At most half the bits are taken: each try finds a free one with a chance of one half or better.
  for (;;) {
    const index = crypto.randomInt(STATUS_LIST_SIZE);
    const [taken] = await tx
      .select({ id: certificateCredentials.certificateId })
      .from(certificateCredentials)
      .where(and(eq(certificateCredentials.statusListId, listId), eq(certificateCredentials.statusIndex, index)));
    if (!taken) return { listId, index };
  }
}

/**
 * The signed Open Badges 3.0 credential of a certificate, for its owner and the staff allowed to
 * see that user (else 1011 as the PDF): signed at its first download and served as it was signed
 * from then on. Certificates issued before VERIFIABLE_CREDENTIALS was on, and revoked ones that
 * never had a credential, have none (404).
 */
export async function certificateCredential(
  deps: CredentialDeps,
  actor: Actor,
  certificateId: number,
): Promise<{ document: string; filename: string }> {
  const { db, issuer } = deps;
  const cert = await viewCertificate(db, actor, certificateId);
  const filename = `Open-Badge-${cert.training.replace(/[^\p{L}\p{N}-]+/gu, "-").slice(0, 60)}-${cert.id}.json`;
  const stored = async (tx: Db | Tx) =>
    (
      await tx
        .select({ document: certificateCredentials.document })
        .from(certificateCredentials)
        .where(eq(certificateCredentials.certificateId, certificateId))
    )[0]?.document;
  const existing = await stored(db);
  if (existing) return { document: existing, filename };
  if (cert.id < (await credentialsFrom(db)) || cert.revokedAt) {
    throw new AppError(ErrorCode.notFound, "This certificate has no digital credential");
  }
  const document = await runTransaction(db, async (tx) => {
    // One issuer at a time: a certificate is signed once, and status indexes stay unique.
    await lockForTransaction(tx, "credentials");
    const again = await stored(tx);
    if (again) return again;
    const { listId, index } = await allocateStatus(tx);
    const salt = crypto.randomBytes(16).toString("hex");
    const issuedAt = deps.now();
    const listUrl = statusListUrl(issuer.publicUrl, listId);
    const signed = await sign(
      issuer,
      {
        "@context": [VC_V2, OB_V3],
        id: `urn:uuid:${crypto.randomUUID()}`,
        type: ["VerifiableCredential", "OpenBadgeCredential"],
        name: cert.training,
        issuer: { id: issuer.did, type: ["Profile"], name: cert.facility ?? "CareCampus", url: issuer.publicUrl },
        validFrom: cert.acquiredAt.toISOString(),
        validUntil: cert.expiresAt.toISOString(),
        credentialSubject: {
          type: ["AchievementSubject"],
          // The holder: a salted hash of their login (OB 3.0 IdentityObject), never a name or address.
          identifier: [
            {
              type: "IdentityObject",
              identityType: "userName",
              hashed: true,
              identityHash: `sha256$${crypto
                .createHash("sha256")
                .update(cert.login + salt)
                .digest("hex")}`,
              salt,
            },
          ],
          achievement: {
            id: nameUuid(`${issuer.did}/training/${cert.trainingId}`),
            type: ["Achievement"],
            achievementType: "Certificate",
            name: cert.training,
            description: cert.description?.trim() || cert.training,
            criteria: { narrative: cert.training },
            fieldOfStudy: cert.topic,
            tag: [cert.topic],
          },
        },
        credentialStatus: {
          id: `${listUrl}#${index}`,
          type: "BitstringStatusListEntry",
          statusPurpose: "revocation",
          statusListIndex: String(index),
          statusListCredential: listUrl,
        },
      },
      issuedAt,
    );
    await tx.insert(certificateCredentials).values({
      certificateId,
      statusListId: listId,
      statusIndex: index,
      keyId: issuer.keyId,
      validUntil: cert.expiresAt,
      document: JSON.stringify(signed, null, 2),
    });
    return JSON.stringify(signed, null, 2);
  });
  return { document, filename };
}

/** The indexes of a list whose credential is revoked: set by setCredentialRevoked, or read from the certificate. */
async function revokedBits(db: Db, listId: number): Promise<number[]> {
  const rows = await db
    .select({ index: certificateCredentials.statusIndex })
    .from(certificateCredentials)
    .innerJoin(certificates, eq(certificates.id, certificateCredentials.certificateId))
    .where(
      and(
        eq(certificateCredentials.statusListId, listId),
        or(isNotNull(certificateCredentials.revokedAt), isNotNull(certificates.revokedAt)),
      ),
    )
    .orderBy(asc(certificateCredentials.statusIndex));
  return rows.map((r) => r.index);
}

/**
 * The signed BitstringStatusListCredential of a list (GET /api/public/status/{list}): signed
 * anew only when its bits changed since the one kept; 404 for a list that does not exist.
 */
export async function statusListCredential(deps: CredentialDeps, listId: number): Promise<Record<string, unknown>> {
  const { db, issuer } = deps;
  const [list] = await db.select().from(credentialStatusLists).where(eq(credentialStatusLists.id, listId));
  if (!list) throw new AppError(ErrorCode.notFound, "No such status list");
  const bits = await revokedBits(db, listId);
  const hash = crypto
    .createHash("sha256")
    .update(`${issuer.keyPair.publicKeyMultibase}:${bits.join(",")}`)
    .digest("hex");
  if (list.document && list.bitsHash === hash) return JSON.parse(list.document) as Record<string, unknown>;
  const bitstring = new Bitstring({ length: list.size });
  for (const i of bits) bitstring.set(i, true);
  const url = statusListUrl(issuer.publicUrl, listId);
  const now = deps.now();
  const signed = await sign(
    issuer,
    {
      "@context": [VC_V2],
      id: url,
      type: ["VerifiableCredential", "BitstringStatusListCredential"],
      issuer: issuer.did,
      validFrom: now.toISOString(),
      credentialSubject: {
        id: `${url}#list`,
        type: "BitstringStatusList",
        statusPurpose: "revocation",
        encodedList: `u${await bitstring.encodeBits()}`,
      },
    },
    now,
  );
  await db
    .update(credentialStatusLists)
    .set({ document: JSON.stringify(signed), bitsHash: hash })
    .where(eq(credentialStatusLists.id, listId));
  return signed;
}

/** What POST /api/public/verify answers: each check, and valid when all hold. */
export interface VerifyAnswer {
  valid: boolean;
  checks: {
    signature: "ok" | "failed";
    issuer: "ok" | "unknown";
    validity: "ok" | "expired" | "not_yet_valid" | "failed";
    status: "ok" | "revoked" | "unknown";
  };
  training: string | null;
  valid_from: string | null;
  valid_until: string | null;
}

const obj = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const str = (v: unknown): string | null => (typeof v === "string" ? v : null);

/**
 * Checks an uploaded credential: its signature (eddsa-rdfc-2022, against every key this
 * installation ever had — nothing is fetched), its issuer (this installation's did:web and one
 * of its keys), its validity period at now, and its status bit in our list. A revoked credential
 * still verifies cryptographically: only the status check says revoked.
 */
export async function verifyUploaded(deps: CredentialDeps, credential: Record<string, unknown>): Promise<VerifyAnswer> {
  const { db, issuer } = deps;
  const keys = (await db.select({ key: credentialKeys.publicKeyMultibase }).from(credentialKeys)).map((r) => r.key);
  const methods = new Map(keys.map((k) => [`${issuer.did}#${k}`, k]));
  const loader = strictLoader((url) => {
    if (url === issuer.did) return didDocument(issuer.did, keys);
    const key = methods.get(url);
    return key ? { "@context": MULTIKEY_V1, ...verificationMethod(issuer.did, key) } : undefined;
  });
  const validFrom = str(credential.validFrom);
  const validUntil = str(credential.validUntil);
  const from = validFrom ? new Date(validFrom) : null;
  let signature: VerifyAnswer["checks"]["signature"] = "failed";
  try {
    const result = await vc.verifyCredential({
      credential,
      suite: suite(),
      documentLoader: loader,
      // The status and the period are checked below, each on its own: here only the proof.
      checkStatus: async () => ({ verified: true }),
      ...(from && !Number.isNaN(from.getTime()) ? { now: from } : {}),
    });
    if (result.verified === true) signature = "ok";
  } catch {
    signature = "failed";
  }
  const proof = obj(Array.isArray(credential.proof) ? credential.proof[0] : credential.proof);
  const issuerId = str(credential.issuer) ?? str(obj(credential.issuer).id);
  const method = str(proof.verificationMethod);
  const issuerCheck = issuerId === issuer.did && method !== null && methods.has(method) ? "ok" : "unknown";
  const now = deps.now();
  const until = validUntil ? new Date(validUntil) : null;
  let validity: VerifyAnswer["checks"]["validity"] = "ok";
  if (!from || Number.isNaN(from.getTime()) || (until && Number.isNaN(until.getTime()))) validity = "failed";
  else if (from > now) validity = "not_yet_valid";
  else if (until && until <= now) validity = "expired";
  const status = await statusOf(deps, obj(credential.credentialStatus));
  const achievement = obj(obj(credential.credentialSubject).achievement);
  return {
    valid: signature === "ok" && issuerCheck === "ok" && validity === "ok" && status === "ok",
    checks: { signature, issuer: issuerCheck, validity, status },
    training: str(achievement.name),
    valid_from: validFrom,
    valid_until: validUntil,
  };
}

/** The revocation bit a credentialStatus names, read from our own list (unknown: not ours). */
async function statusOf(deps: CredentialDeps, status: Record<string, unknown>): Promise<"ok" | "revoked" | "unknown"> {
  const prefix = `${deps.issuer.publicUrl}/api/public/status/`;
  const listUrl = str(status.statusListCredential);
  const index = Number(str(status.statusListIndex) ?? Number.NaN);
  if (status.type !== "BitstringStatusListEntry" || status.statusPurpose !== "revocation") return "unknown";
  if (!listUrl?.startsWith(prefix) || !Number.isInteger(index) || index < 0) return "unknown";
  const listId = Number(listUrl.slice(prefix.length));
  if (!Number.isInteger(listId) || listId < 1 || listId > 2_147_483_647) return "unknown";
  const [list] = await deps.db
    .select({ size: credentialStatusLists.size })
    .from(credentialStatusLists)
    .where(eq(credentialStatusLists.id, listId));
  if (!list || index >= list.size) return "unknown";
  // The bit as the served list has it: the same query signs the list.
  return (await revokedBits(deps.db, listId)).includes(index) ? "revoked" : "ok";
}

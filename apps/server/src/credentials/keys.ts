import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as Ed25519Multikey from "@digitalbazaar/ed25519-multikey";
import * as base58 from "base58-universal";
import { eq, gt, inArray, or, sql } from "drizzle-orm";
import type { Database, Db } from "../db/client";
import { appMeta, certificateCredentials, credentialKeys } from "../db/schema";
import { DID_V1, MULTIKEY_V1 } from "./contexts";

/** The app_meta row of a generated signing key (PostgreSQL); on PGlite the file DATA_DIR/credentials-key. */
export const CREDENTIALS_KEY_META = "credentials_key";

/** An Ed25519 secret key as a JWK (the form a generated key is kept in). */
interface Ed25519Jwk {
  kty: "OKP";
  crv: "Ed25519";
  d: string;
  x: string;
}

/** The Ed25519 JWK of a 32-byte secret (seed): its public half derived by Node's crypto. */
function jwkOfSeed(seed: Uint8Array): Ed25519Jwk {
  if (seed.length !== 32) throw new Error("An Ed25519 secret key has 32 bytes");
  const der = Buffer.concat([Buffer.from("302e020100300506032b657004220420", "hex"), Buffer.from(seed)]);
  const jwk = crypto.createPrivateKey({ key: der, format: "der", type: "pkcs8" }).export({ format: "jwk" });
  return jwk as unknown as Ed25519Jwk;
}

/**
 * CREDENTIALS_KEY as a JWK: an Ed25519 JWK with "d", or a Multikey secretKeyMultibase (z…,
 * multicodec ed25519-priv). Anything else stops the start with a clear message.
 */
export function parseConfiguredKey(value: string): Ed25519Jwk {
  const text = value.trim();
  try {
    if (text.startsWith("{")) {
      const jwk = JSON.parse(text) as Partial<Ed25519Jwk>;
      if (jwk.kty !== "OKP" || jwk.crv !== "Ed25519" || typeof jwk.d !== "string") throw new Error("not Ed25519");
      return jwkOfSeed(Buffer.from(jwk.d, "base64url"));
    }
    if (!text.startsWith("z")) throw new Error("not base58btc");
    const bytes = base58.decode(text.slice(1)) as Uint8Array;
    if (bytes[0] !== 0x80 || bytes[1] !== 0x26) throw new Error("not an ed25519-priv multikey");
    return jwkOfSeed(bytes.slice(2));
  } catch {
    throw new Error(
      "CREDENTIALS_KEY: not an Ed25519 secret key (a Multikey secretKeyMultibase z… or an Ed25519 JWK with d)",
    );
  }
}

/**
 * The signing key: CREDENTIALS_KEY, else one generated once and kept like the token secret — on
 * PostgreSQL in app_meta (every server signs with the same one), on PGlite in the data directory.
 */
export async function loadSigningJwk(
  configured: string | undefined,
  database: Pick<Database, "db" | "kind">,
  dataDir: string,
): Promise<Ed25519Jwk> {
  if (configured) return parseConfiguredKey(configured);
  const fresh = JSON.stringify(jwkOfSeed(crypto.randomBytes(32)));
  if (database.kind === "postgres") {
    await database.db.insert(appMeta).values({ key: CREDENTIALS_KEY_META, value: fresh }).onConflictDoNothing();
    const [row] = await database.db
      .select({ value: appMeta.value })
      .from(appMeta)
      .where(eq(appMeta.key, CREDENTIALS_KEY_META));
    if (!row) throw new Error("The credentials key could not be stored");
    return JSON.parse(row.value) as Ed25519Jwk;
  }
  const file = path.join(dataDir, "credentials-key");
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, fresh, { flag: "wx", mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  }
  return JSON.parse(fs.readFileSync(file, "utf8")) as Ed25519Jwk;
}

/** did:web of an installation address: host (a port's colon percent-encoded) and path segments. */
export function didWebOf(publicUrl: string): string {
  const url = new URL(publicUrl);
  const segments = url.pathname.split("/").filter(Boolean).map(encodeURIComponent);
  return ["did:web", encodeURIComponent(url.host), ...segments].join(":");
}

/** The installation's signing identity: its DID, its current key pair and that key's row. */
export interface Issuer {
  did: string;
  publicUrl: string;
  keyPair: {
    id: string;
    publicKeyMultibase: string;
    signer(): unknown;
  };
  keyId: number;
}

/** Loads the key pair and records its public half (credential_keys) when it is new: a rotation. */
export async function loadIssuer(db: Db, jwk: Ed25519Jwk, publicUrl: string): Promise<Issuer> {
  const did = didWebOf(publicUrl);
  const pair = await Ed25519Multikey.fromJwk({ jwk, secretKey: true, controller: did });
  pair.id = `${did}#${pair.publicKeyMultibase}`;
  await db.insert(credentialKeys).values({ publicKeyMultibase: pair.publicKeyMultibase }).onConflictDoNothing();
  const [row] = await db
    .select({ id: credentialKeys.id })
    .from(credentialKeys)
    .where(eq(credentialKeys.publicKeyMultibase, pair.publicKeyMultibase));
  return { did, publicUrl, keyPair: pair, keyId: (row as { id: number }).id };
}

/** A verification method of the DID document (Multikey). */
export function verificationMethod(did: string, publicKeyMultibase: string) {
  return {
    id: `${did}#${publicKeyMultibase}`,
    type: "Multikey",
    controller: did,
    publicKeyMultibase,
  };
}

/**
 * The keys did.json lists: the current one and every older one that signed a credential still
 * valid at `now` (a revoked one included: its status says so, its signature still holds).
 */
export async function publishedKeys(db: Db, currentKeyId: number, now: Date): Promise<string[]> {
  const stillValid = db
    .select({ keyId: certificateCredentials.keyId })
    .from(certificateCredentials)
    .where(gt(certificateCredentials.validUntil, now));
  const rows = await db
    .select({ key: credentialKeys.publicKeyMultibase })
    .from(credentialKeys)
    .where(or(eq(credentialKeys.id, currentKeyId), inArray(credentialKeys.id, stillValid)))
    .orderBy(sql`${credentialKeys.id} = ${currentKeyId} desc`, credentialKeys.id);
  return rows.map((r) => r.key);
}

/** The DID document of did:web (served at /.well-known/did.json). */
export function didDocument(did: string, keys: string[]) {
  const methods = keys.map((k) => verificationMethod(did, k));
  return {
    "@context": [DID_V1, MULTIKEY_V1],
    id: did,
    verificationMethod: methods,
    assertionMethod: methods.map((m) => m.id),
  };
}

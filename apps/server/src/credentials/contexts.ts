/// <reference path="./vendor.d.ts" />
import { contexts as credentialContexts } from "@digitalbazaar/credentials-context";
import { contexts as dataIntegrityContexts } from "@digitalbazaar/data-integrity-context";
import { contexts as multikeyContexts } from "@digitalbazaar/multikey-context";
import { contexts as statusListContexts } from "@digitalbazaar/vc-bitstring-status-list-context";
import { contexts as didContexts } from "did-context";
import ob3 from "./contexts/ob-v3p0-context-3.0.3.json";

export const VC_V2 = "https://www.w3.org/ns/credentials/v2";
export const OB_V3 = "https://purl.imsglobal.org/spec/ob/v3p0/context-3.0.3.json";
export const DID_V1 = "https://www.w3.org/ns/did/v1";
export const MULTIKEY_V1 = "https://w3id.org/security/multikey/v1";

/** Every JSON-LD context the credentials use, bundled (contexts/SOURCE.md names where each is from). */
export const BUNDLED_CONTEXTS: ReadonlyMap<string, unknown> = new Map<string, unknown>([
  [VC_V2, (credentialContexts as Map<string, unknown>).get(VC_V2)],
  ...(dataIntegrityContexts as Map<string, unknown>),
  ...(multikeyContexts as Map<string, unknown>),
  ...(statusListContexts as Map<string, unknown>),
  ...(didContexts as Map<string, unknown>),
  [OB_V3, ob3],
]);

export interface LoadedDocument {
  contextUrl: null;
  documentUrl: string;
  document: unknown;
}

/**
 * A JSON-LD document loader that holds the bundled contexts and the documents `extra` gives
 * (the installation's DID document and keys) and refuses every other address: nothing is ever
 * fetched.
 */
export function strictLoader(extra: (url: string) => unknown = () => undefined) {
  return async (url: string): Promise<LoadedDocument> => {
    const document = BUNDLED_CONTEXTS.get(url) ?? extra(url);
    if (document === undefined) throw new Error(`Document not held here (nothing is fetched): ${url}`);
    return { contextUrl: null, documentUrl: url, document };
  };
}

import type { UserProgress } from "@carecampus/contract";
import { COPY_KEY, certificatePdfKey, certificatesOf, OFFLINE_CACHE, type PdfRef } from "./keys";

/*
 * The device-kept copy of "my certificates" (issue 30): the learner's own progress with every
 * certificate, kept in Cache Storage each time it arrives, so that on the ward without a network
 * the list can still be shown — and the PDFs opened before, which the service worker keeps beside
 * it (sw/sw.ts). The copy lasts until logout on this device or another person's login here: the
 * worker's own phone keeps it; on a shared device, logging out removes it (README, "Offline").
 */

export interface OfflineCopy {
  user: { id: number; name: string; surname: string };
  /** When the copy was taken (ISO). */
  saved_at: string;
  progress: UserProgress;
}

/** History state of /offline/certificates from the login: the server could not be reached with a network. */
export interface OfflineEntry {
  unreachable?: boolean;
}

const storage = () => (typeof caches === "undefined" ? null : caches);

/** Keeps the learner's progress as the device's copy (a failure only means no copy). */
export async function keepCopy(user: OfflineCopy["user"], progress: UserProgress): Promise<void> {
  const store = storage();
  if (!store) return;
  const copy: OfflineCopy = { user, saved_at: new Date().toISOString(), progress };
  try {
    // Another person's copy went at this person's login (session/store.ts): nothing to read first.
    const cache = await store.open(OFFLINE_CACHE);
    await cache.put(COPY_KEY, new Response(JSON.stringify(copy), { headers: { "content-type": "application/json" } }));
  } catch {
    // Storage full or refused (a private window): the app works on, without a copy.
  }
}

/** The device's copy, if there is one. */
export async function readCopy(): Promise<OfflineCopy | null> {
  const store = storage();
  if (!store) return null;
  try {
    const kept = await (await store.open(OFFLINE_CACHE)).match(COPY_KEY);
    return kept ? ((await kept.json()) as OfflineCopy) : null;
  } catch {
    return null;
  }
}

/** Which of the copy's certificates have their PDF kept on this device. */
export async function keptPdfs(copy: OfflineCopy): Promise<Set<string>> {
  const store = storage();
  const kept = new Set<string>();
  if (!store) return kept;
  const cache = await store.open(OFFLINE_CACHE);
  await Promise.all(
    certificatesOf(copy.progress).map(async (ref) => {
      if (await cache.match(certificatePdfKey(ref))) kept.add(pdfId(ref));
    }),
  );
  return kept;
}

/** A certificate's name in keptPdfs' set. */
export const pdfId = (ref: PdfRef) => `${ref.partner ? "p" : "c"}${ref.id}`;

/** Removes the copy and its PDFs: at logout, and before another person's copy is kept. */
export async function forgetCopy(): Promise<void> {
  await storage()
    ?.delete(OFFLINE_CACHE)
    .catch(() => undefined);
}

/** At a login: another person's copy on this device goes. */
export async function forgetCopyOfOthers(userId: number): Promise<void> {
  const copy = await readCopy();
  if (copy && copy.user.id !== userId) await forgetCopy();
}

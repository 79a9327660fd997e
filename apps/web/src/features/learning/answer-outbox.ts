import { ApiError } from "../../api/call";

/*
 * A quiz answer that could not be sent (no connection, no reply in time, the server unavailable)
 * is kept on the device (IndexedDB) with its Idempotency-Key until it has been delivered: a reload
 * or a later visit finds it and sends it again with the same key, so the server records it once
 * (issue 30). One answer per learner and questionnaire can wait: the quiz goes on only once it
 * has arrived.
 */

/** An answer waiting on the device. */
export interface KeptAnswer {
  /** `<user>:<questionnaire>:<l|p>` (learning or practice). */
  slot: string;
  key: string;
  questionId: number;
  round: number;
  answers: number[];
}

const DB_NAME = "carecampus";
const STORE = "answers";
/** How long an answer waits before it is tried again without an event (online, back to the tab). */
export const RETRY_MS = 10_000;
/** How long a send may take before it counts as lost (the connection of a phone on the ward). */
export const ANSWER_TIMEOUT_MS = 20_000;

export const answerSlot = (userId: number, questionnaireId: number, practice: boolean) =>
  `${userId}:${questionnaireId}:${practice ? "p" : "l"}`;

/** A send that did not reach the server or found it unavailable: worth sending again. */
export function unsent(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 0 || err.status === 408 || err.status >= 500);
}

let opened: Promise<IDBDatabase | null> | undefined;

/** The device's database; null where there is none (a private window that refuses it, tests). */
function database(): Promise<IDBDatabase | null> {
  opened ??= new Promise((resolve) => {
    if (typeof indexedDB === "undefined") return resolve(null);
    try {
      const request = indexedDB.open(DB_NAME, 1);
      request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "slot" });
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(null);
      request.onblocked = () => resolve(null);
    } catch {
      resolve(null);
    }
  });
  return opened;
}

async function inStore<T>(
  mode: IDBTransactionMode,
  work: (store: IDBObjectStore) => IDBRequest<T>,
): Promise<T | undefined> {
  const db = await database();
  if (!db) return undefined;
  return new Promise((resolve) => {
    try {
      const request = work(db.transaction(STORE, mode).objectStore(STORE));
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => resolve(undefined);
    } catch {
      resolve(undefined);
    }
  });
}

export async function keptAnswer(slot: string): Promise<KeptAnswer | undefined> {
  return (await inStore("readonly", (s) => s.get(slot) as IDBRequest<KeptAnswer | undefined>)) ?? undefined;
}

export async function keepAnswer(answer: KeptAnswer): Promise<void> {
  await inStore("readwrite", (s) => s.put(answer));
}

export async function dropAnswer(slot: string): Promise<void> {
  await inStore("readwrite", (s) => s.delete(slot));
}

/** How many answers wait on this device, of anyone (the update prompt waits while any do). */
export async function keptAnswerCount(): Promise<number> {
  return (await inStore("readonly", (s) => s.count())) ?? 0;
}

/**
 * The next moment worth sending again: the browser is online again, the tab is shown again, or
 * RETRY_MS passed. Rejects when `signal` aborts (the quiz was left).
 */
function nextChance(signal: AbortSignal): Promise<void> {
  // Left before the first wait (while the first send was still on its way): no abort event comes.
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise((resolve, reject) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", go);
      document.removeEventListener("visibilitychange", shown);
      signal.removeEventListener("abort", aborted);
    };
    const go = () => {
      done();
      resolve();
    };
    const shown = () => {
      if (document.visibilityState === "visible") go();
    };
    const aborted = () => {
      done();
      reject(signal.reason);
    };
    const timer = setTimeout(go, RETRY_MS);
    window.addEventListener("online", go);
    document.addEventListener("visibilitychange", shown);
    signal.addEventListener("abort", aborted);
  });
}

/** Sends again at every chance until the answer arrives; rethrows what is not worth another try. */
export async function untilSent<T>(send: () => Promise<T>, signal: AbortSignal): Promise<T> {
  for (;;) {
    await nextChance(signal);
    try {
      return await send();
    } catch (err) {
      if (!unsent(err)) throw err;
    }
  }
}

import type { PGlite } from "@electric-sql/pglite";
import pg from "pg";

/*
 * What other processes changed, for the caches a server keeps in memory (sessions, learning
 * content). The database's triggers (migrations 0015 and 0016) notify at commit whatever wrote
 * the change: this server, another server on the same PostgreSQL, a CLI. A cache answers from
 * memory only while its feed is live; while it is down (the listening connection lost) every
 * read goes to the database, and coming back every cache starts empty, since notifications may
 * have been missed meanwhile.
 */

/** The channels of the triggers of migrations 0015 and 0016. */
export const CHANNELS = ["cc_session", "cc_content"] as const;
export type Channel = (typeof CHANNELS)[number];

/** `payload` is the notification's; null when the feed was down and anything may have changed. */
export type ChangeListener = (payload: string | null) => void;

export interface ChangeFeed {
  /** True while every committed change reaches this process. */
  readonly live: boolean;
  /**
   * PostgreSQL: other processes may write, and their changes reach this one a moment after
   * their commit (the time the notification takes), not before the writer's answer.
   */
  readonly shared: boolean;
  on(channel: Channel, listener: ChangeListener): () => void;
  /**
   * This process has just committed a change on `channel`: its own caches drop what it touched
   * now, as the notification would make them, rather than trusting that the database hands a
   * session its own notification before the commit returns (db/transaction.ts calls it).
   */
  announce(channel: Channel): void;
  close(): Promise<void>;
}

function listeners() {
  const byChannel = new Map<Channel, Set<ChangeListener>>(CHANNELS.map((c) => [c, new Set()]));
  return {
    on(channel: Channel, listener: ChangeListener) {
      byChannel.get(channel)?.add(listener);
      return () => void byChannel.get(channel)?.delete(listener);
    },
    emit(channel: string, payload: string | null) {
      for (const listener of byChannel.get(channel as Channel) ?? []) listener(payload);
    },
    reset() {
      for (const [, set] of byChannel) for (const listener of set) listener(null);
    },
  };
}

/**
 * PGlite: one process, one session. Its notifications are delivered before the committing
 * statement's promise resolves, so the caches are current as soon as the write is.
 */
export async function pgliteChangeFeed(client: PGlite): Promise<ChangeFeed> {
  const subscribers = listeners();
  const stops = await Promise.all(
    CHANNELS.map((channel) => client.listen(channel, (payload) => subscribers.emit(channel, payload))),
  );
  let live = true;
  return {
    get live() {
      return live;
    },
    shared: false,
    on: subscribers.on,
    announce: (channel) => subscribers.emit(channel, "*"),
    close: async () => {
      live = false;
      await Promise.all(stops.map((stop) => stop().catch(() => {})));
    },
  };
}

const LISTEN = CHANNELS.map((channel) => `listen ${channel}`).join("; ");

/**
 * PostgreSQL: a connection of its own LISTENs on every channel. Lost, it is opened again (after
 * 0.5 s, doubling up to 30 s) and the caches are emptied both when it goes and when it comes back.
 * Every connection of the pool LISTENs too: PostgreSQL hands a session its own notifications
 * before the committing statement returns, so whatever this process writes is out of its caches
 * by the time the write resolves (other processes' writes arrive as soon as they commit).
 */
export async function postgresChangeFeed(
  connectionString: string,
): Promise<{ feed: ChangeFeed; onConnect: (pooled: pg.ClientBase) => Promise<void> }> {
  const subscribers = listeners();
  /**
   * The server processes of the pool's connections that listen: each hands its own notifications
   * to its connection, so the listening connection passes over theirs (one notice, not two).
   */
  const ours = new Set<number>();
  const backend = (c: pg.ClientBase) => (c as unknown as { processID: number | null }).processID;
  /** The pool's onConnect: a new connection LISTENs before the pool hands it out. */
  const onConnect = async (pooled: pg.ClientBase) => {
    pooled.on("notification", (m) => {
      if (m.processId === backend(pooled)) subscribers.emit(m.channel, m.payload ?? "");
    });
    await pooled.query(LISTEN);
    const pid = backend(pooled);
    if (pid !== null) {
      ours.add(pid);
      pooled.once("end", () => ours.delete(pid));
    }
  };
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | null = null;
  let delay = 500;

  const down = (c: pg.Client) => {
    if (client !== c) return;
    client = null;
    subscribers.reset();
    c.end().catch(() => {});
    if (!closed) {
      retry = setTimeout(() => void connect(), delay);
      retry.unref();
      delay = Math.min(delay * 2, 30_000);
    }
  };

  const connect = async (): Promise<void> => {
    retry = null;
    const c = new pg.Client({ connectionString });
    c.on("notification", (m) => {
      if (client === c && !ours.has(m.processId)) subscribers.emit(m.channel, m.payload ?? "");
    });
    c.on("error", () => down(c));
    c.on("end", () => down(c));
    try {
      await c.connect();
      await c.query(LISTEN);
    } catch {
      c.removeAllListeners("end");
      c.end().catch(() => {});
      if (!closed) {
        retry = setTimeout(() => void connect(), delay);
        retry.unref();
        delay = Math.min(delay * 2, 30_000);
      }
      return;
    }
    if (closed) {
      await c.end().catch(() => {});
      return;
    }
    delay = 500;
    // Whatever happened while nobody listened is unknown: start from the database again.
    subscribers.reset();
    client = c;
  };

  await connect();
  const feed: ChangeFeed = {
    get live() {
      return client !== null;
    },
    shared: true,
    on: subscribers.on,
    announce: (channel) => subscribers.emit(channel, "*"),
    close: async () => {
      closed = true;
      if (retry) clearTimeout(retry);
      const c = client;
      client = null;
      await c?.end().catch(() => {});
    },
  };
  return { feed, onConnect };
}

/**
 * A cache of values loaded from the database, emptied by a channel of the feed: a payload names
 * the key to drop (`keyOf`), null or '*' drops everything. Requests that miss the same key at
 * once share one load. A value loaded while a change came in is returned but not kept (it may
 * predate the change). Bounded: the oldest entry leaves first.
 */
export class ChangeCache<K, V> {
  #entries = new Map<K, V>();
  #loading = new Map<K, { epoch: number; value: Promise<V | undefined> }>();
  /** Raised by every change: a load that saw it move may hold data older than the change. */
  #epoch = 0;

  constructor(
    private readonly feed: ChangeFeed,
    channel: Channel,
    keyOf: (payload: string) => K | undefined,
    private readonly max: number,
  ) {
    feed.on(channel, (payload) => {
      this.#epoch++;
      const key = payload === null || payload === "*" ? undefined : keyOf(payload);
      if (key === undefined) this.#entries.clear();
      else this.#entries.delete(key);
    });
  }

  /** Drops what is kept for `key` (found out of date some other way than the feed). */
  forget(key: K): void {
    this.#epoch++;
    this.#entries.delete(key);
  }

  async get(key: K, load: () => Promise<V | undefined>): Promise<V | undefined> {
    if (!this.feed.live) return load();
    const hit = this.#entries.get(key);
    if (hit !== undefined) return hit;
    const epoch = this.#epoch;
    const pending = this.#loading.get(key);
    if (pending && pending.epoch === epoch) return pending.value;
    const value = load();
    this.#loading.set(key, { epoch, value });
    try {
      const loaded = await value;
      if (loaded !== undefined && this.feed.live && epoch === this.#epoch) {
        if (this.#entries.size >= this.max) this.#entries.delete(this.#entries.keys().next().value as K);
        this.#entries.set(key, loaded);
      }
      return loaded;
    } finally {
      if (this.#loading.get(key)?.value === value) this.#loading.delete(key);
    }
  }
}

/*
 * The backup channel of a running PGlite server. PGlite's data directory opens in one process
 * only, so `npm run backup` cannot read it while the server runs: it asks the server instead.
 *
 * The server listens on 127.0.0.1 only (whatever HOST says: never reachable from another machine)
 * on a port of its choosing, and writes the port and a random secret to DATA_DIR/backup-channel.json,
 * readable by its own operating-system user only (0600). A request without that secret gets 401 and
 * nothing else. Whoever can read the file can read DATA_DIR/pglite itself: the channel gives nobody
 * more than the files already do. The file goes when the server stops. PostgreSQL needs no channel:
 * the command reads the database through DATABASE_URL.
 */
import crypto from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import type { Database } from "../db/client";
import { writeBackup } from "./dump";
import { BackupError } from "./format";

export const CHANNEL_FILE = "backup-channel.json";

interface ChannelInfo {
  port: number;
  secret: string;
  pid: number;
}

export interface BackupChannel {
  port: number;
  close(): Promise<void>;
}

function authorised(header: string | undefined, secret: string): boolean {
  const given = Buffer.from(header ?? "");
  const wanted = Buffer.from(`Bearer ${secret}`);
  return given.length === wanted.length && crypto.timingSafeEqual(given, wanted);
}

/** Starts the channel for `database` (PGlite) and writes DATA_DIR/backup-channel.json. */
export async function startBackupChannel(
  database: Database,
  dataDir: string,
  log: (message: string, err?: unknown) => void,
): Promise<BackupChannel> {
  const secret = crypto.randomBytes(32).toString("base64url");
  let busy = false;
  const server = http.createServer((req, res) => {
    if (req.method !== "GET" || req.url !== "/backup" || !authorised(req.headers.authorization, secret)) {
      res.writeHead(req.url === "/backup" ? 401 : 404).end();
      return;
    }
    if (busy) {
      res.writeHead(409, { "content-type": "text/plain" }).end("A backup is already being written.");
      return;
    }
    busy = true;
    res.writeHead(200, { "content-type": "application/gzip" });
    writeBackup(database.db, database.kind, res)
      .catch((err: unknown) => {
        // The reader sees a cut-off file (no manifest) and says so.
        log("backup through the channel failed", err);
        res.destroy();
      })
      .finally(() => {
        busy = false;
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as { port: number }).port;
  const file = path.join(dataDir, CHANNEL_FILE);
  const info: ChannelInfo = { port, secret, pid: process.pid };
  // Written under another name and renamed: a reader never sees half a file, nor one readable by others.
  const temp = `${file}.${process.pid}`;
  fs.writeFileSync(temp, JSON.stringify(info), { mode: 0o600 });
  fs.renameSync(temp, file);
  return {
    port,
    close: async () => {
      try {
        if (fs.readFileSync(file, "utf8") === JSON.stringify(info)) fs.unlinkSync(file);
      } catch {
        // already gone
      }
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The channel a server in `dataDir` announced, or null when there is none. */
export function readChannel(dataDir: string): ChannelInfo | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dataDir, CHANNEL_FILE), "utf8")) as ChannelInfo;
  } catch {
    return null;
  }
}

/** Asks the server behind `channel` for a backup and writes it to `out`. */
export function fetchBackup(channel: ChannelInfo, out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      {
        host: "127.0.0.1",
        port: channel.port,
        path: "/backup",
        headers: { authorization: `Bearer ${channel.secret}` },
      },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(
            new BackupError(
              res.statusCode === 401
                ? "The server refused the backup channel's secret (is backup-channel.json of another server?)."
                : `The server answered the backup request with HTTP ${res.statusCode}.`,
            ),
          );
          return;
        }
        res.on("error", reject);
        res.on("aborted", () => reject(new BackupError("The server broke off the backup (see its log).")));
        res.pipe(out);
        out.on("finish", () => resolve());
        out.on("error", reject);
      },
    );
    req.on("error", (err) =>
      reject(new BackupError(`The server in this DATA_DIR does not answer on its backup channel (${err.message}).`)),
    );
  });
}

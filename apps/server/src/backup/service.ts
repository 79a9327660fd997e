import fs from "node:fs";
import path from "node:path";
import { DataDirInUseError, openDatabase } from "../db/client";
import { fetchBackup, readChannel } from "./channel";
import { writeBackup } from "./dump";
import { BackupError, type BackupHeader, checkBackup, type Manifest } from "./format";

/** Which installation a backup reads: PostgreSQL with a URL, else the PGlite data directory. */
export interface BackupSource {
  databaseUrl?: string | undefined;
  dataDir: string;
}

function writeTo(file: string): { stream: fs.WriteStream; done: Promise<void> } {
  const stream = fs.createWriteStream(file, { mode: 0o600 });
  const done = new Promise<void>((resolve, reject) => {
    stream.on("close", () => resolve());
    stream.on("error", reject);
  });
  return { stream, done };
}

/** PGlite: through the running server's channel, else (no server) from the directory itself. */
async function backupPglite(dataDir: string, file: string): Promise<void> {
  const channel = readChannel(dataDir);
  if (channel) {
    const out = writeTo(file);
    try {
      await fetchBackup(channel, out.stream);
      await out.done;
      return;
    } catch (err) {
      out.stream.destroy();
      // A channel file left by a server that was killed: nobody answers. Read the directory then.
      if (!(err instanceof BackupError) || !/does not answer/.test(err.message)) throw err;
    }
  }
  if (!fs.existsSync(path.join(dataDir, "pglite"))) {
    throw new BackupError(`There is no CareCampus database in ${dataDir} (DATA_DIR).`);
  }
  let database: Awaited<ReturnType<typeof openDatabase>>;
  try {
    database = await openDatabase({ pgliteDir: dataDir, migrations: false });
  } catch (err) {
    if (err instanceof DataDirInUseError) {
      throw new BackupError(
        `${err.message} It announced no backup channel: a server of an older version? Stop it and back up again.`,
      );
    }
    throw err;
  }
  try {
    const out = writeTo(file);
    await writeBackup(database.db, "pglite", out.stream);
    await out.done;
  } finally {
    await database.close();
  }
}

/**
 * `npm run backup -- FILE`: a consistent backup of the installation, running or not. Written under
 * a temporary name, read back and checked, and only then given its name: FILE is always whole.
 */
export async function backupInstallation(
  source: BackupSource,
  file: string,
): Promise<{ header: BackupHeader; manifest: Manifest }> {
  if (!fs.existsSync(path.dirname(file))) throw new BackupError(`The folder ${path.dirname(file)} does not exist.`);
  const temp = `${file}.partial-${process.pid}`;
  try {
    if (source.databaseUrl) {
      const database = await openDatabase({ databaseUrl: source.databaseUrl, migrations: false, poolSize: 1 });
      try {
        const out = writeTo(temp);
        await writeBackup(database.db, "postgres", out.stream);
        await out.done;
      } finally {
        await database.close();
      }
    } else {
      await backupPglite(source.dataDir, temp);
    }
    const checked = await checkBackup(temp);
    fs.renameSync(temp, file);
    return checked;
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

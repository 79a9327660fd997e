import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { onPostgres } from "../../test/helpers";
import { DataDirInUseError, openDatabase, processStartTime } from "./client";

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "cc-lock-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

/**
 * A data directory that starts as the run's migrated template (test/global-setup.ts), as the
 * API tests' in-memory databases do: the guard is the subject here, not initdb and the migrations
 * (the global setup runs those on an empty directory through openDatabase, every run).
 */
const template = () => {
  const file = inject("pgliteTemplate");
  return file ? new Blob([fs.readFileSync(file)]) : undefined;
};

// PGlite's own: the PostgreSQL leg (TEST_DB=pg) has no data directory to guard.
describe.skipIf(onPostgres)("PGlite data directory guard", { timeout: 120_000 }, () => {
  it("refuses a directory held by another live process, with a clear message", async () => {
    const dir = tmp();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      fs.writeFileSync(path.join(dir, "carecampus.lock"), String(other.pid));
      const attempt = openDatabase({ pgliteDir: dir });
      await expect(attempt).rejects.toBeInstanceOf(DataDirInUseError);
      await expect(attempt).rejects.toThrow(/in use by another CareCampus process/);
      expect(fs.existsSync(path.join(dir, "pglite"))).toBe(false);
    } finally {
      other.kill();
    }
  });

  it("takes over a stale lock, and releases it on close", async () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, "carecampus.lock"), "999999");
    const database = await openDatabase({ pgliteDir: dir, fsync: true, pgliteLoadDataDir: template() });
    expect(JSON.parse(fs.readFileSync(path.join(dir, "carecampus.lock"), "utf8"))).toEqual({
      pid: process.pid,
      start: processStartTime(process.pid),
    });
    await database.ping();
    await database.close();
    expect(fs.existsSync(path.join(dir, "carecampus.lock"))).toBe(false);
  });

  it("refuses a directory whose lock names a live process by its pid and start time", async () => {
    const dir = tmp();
    const other = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      const pid = other.pid as number;
      fs.writeFileSync(path.join(dir, "carecampus.lock"), JSON.stringify({ pid, start: processStartTime(pid) }));
      await expect(openDatabase({ pgliteDir: dir })).rejects.toBeInstanceOf(DataDirInUseError);
    } finally {
      other.kill();
    }
  });

  it.each([
    ["a lock file of this version (another start time)", (pid: number) => JSON.stringify({ pid, start: "1" })],
    ["an older bare-pid lock file written before that process started", (pid: number) => String(pid)],
  ])("takes over a stale lock naming a live but unrelated process: %s", async (_name, content) => {
    const dir = tmp();
    const unrelated = spawn(process.execPath, ["-e", "setTimeout(() => {}, 30000)"]);
    try {
      const pid = unrelated.pid as number;
      const lockFile = path.join(dir, "carecampus.lock");
      // Left by a CareCampus killed an hour ago; its pid now belongs to another process.
      fs.writeFileSync(lockFile, content(pid));
      const anHourAgo = new Date(Date.now() - 3_600_000);
      fs.utimesSync(lockFile, anHourAgo, anHourAgo);
      const database = await openDatabase({ pgliteDir: dir, pgliteLoadDataDir: template() });
      expect(JSON.parse(fs.readFileSync(lockFile, "utf8")).pid).toBe(process.pid);
      await database.close();
    } finally {
      unrelated.kill();
    }
  });
});

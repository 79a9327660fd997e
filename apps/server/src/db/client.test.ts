import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DataDirInUseError, openDatabase } from "./client";

const dirs: string[] = [];
const tmp = () => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), "cc-lock-"));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

describe("PGlite data directory guard", () => {
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
    const database = await openDatabase({ pgliteDir: dir, fsync: true });
    expect(fs.readFileSync(path.join(dir, "carecampus.lock"), "utf8")).toBe(String(process.pid));
    await database.ping();
    await database.close();
    expect(fs.existsSync(path.join(dir, "carecampus.lock"))).toBe(false);
  });
});

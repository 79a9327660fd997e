import { execFileSync } from "node:child_process";
import fs from "node:fs";
import type { VersionResponse } from "@carecampus/contract";
import { serverPath } from "../paths";

const root = serverPath("../../");

/** Short commit hash and date of the running code, read once at start-up. */
export function readVersion(): VersionResponse {
  const pkg = JSON.parse(fs.readFileSync(`${root}package.json`, "utf8")) as { version: string };
  try {
    const out = execFileSync("git", ["log", "-1", "--format=%h|%cI"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
    const [short_hash, date] = out.split("|");
    if (short_hash && date) return { short_hash, date, version: pkg.version };
  } catch {
    // not a git checkout (e.g. an unpacked release): fall back to the package version
  }
  return {
    short_hash: process.env.APP_COMMIT ?? "unknown",
    date: process.env.APP_COMMIT_DATE ?? "",
    version: pkg.version,
  };
}

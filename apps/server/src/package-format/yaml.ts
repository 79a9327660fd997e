import fs from "node:fs";
import path from "node:path";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";

/*
 * Reading a content package's YAML files, with problems named by file: content/ reads the
 * package, wiki/ its wiki part.
 */

export function issues(file: string, error: z.ZodError): string[] {
  return error.issues.map((i) => `${file}: ${i.path.length ? `${i.path.join(".")}: ` : ""}${i.message}`);
}

export function readYaml(dir: string, file: string, problems: string[]): unknown {
  const full = path.join(dir, file);
  if (!fs.existsSync(full)) {
    problems.push(`${file}: file is missing`);
    return undefined;
  }
  try {
    return parseYaml(fs.readFileSync(full, "utf8"));
  } catch (err) {
    problems.push(`${file}: not valid YAML: ${(err as Error).message.split("\n")[0]}`);
    return undefined;
  }
}

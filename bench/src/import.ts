import { ACTIVITY_FOCUS, JOB_QUALIFICATIONS } from "../../apps/server/src/db/seed-lists";

export interface ImportBench {
  size: number;
  firstMs: number;
  againMs: number;
  /** The slowest /api/health answer while the first import ran: does the server stay responsive? */
  healthMaxMs: number;
  healthChecks: number;
  result: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A CSV import of `size` new users with their own passwords (one argon2 hash each) through
 * POST /api/auth/admin/users, then the same file again (nothing to change). /api/health is
 * polled meanwhile to show the server keeps answering.
 */
export async function benchImport(
  base: string,
  token: string,
  facilities: string[],
  size: number,
): Promise<ImportBench> {
  const rows = Array.from({ length: size }, (_, i) => ({
    surname: `Wróbel-Öztürk ${i}`,
    name: "Zoë",
    login: `import-${size}-${i}`,
    facility: facilities[i % facilities.length] as string,
    activities: [ACTIVITY_FOCUS[i % ACTIVITY_FOCUS.length] as string],
    qualifications: [JOB_QUALIFICATIONS[i % JOB_QUALIFICATIONS.length] as string],
    password: `Imp-${i}-Pass!`,
  }));
  const body = JSON.stringify(rows);
  const post = async () => {
    const started = performance.now();
    const res = await fetch(`${base}/api/auth/admin/users?deleteNotIncludedUsers=false`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body,
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`import of ${size} failed: ${res.status} ${text.slice(0, 300)}`);
    return { ms: performance.now() - started, text };
  };
  let running = true;
  let healthMaxMs = 0;
  let healthChecks = 0;
  const monitor = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${base}/api/health`);
      healthMaxMs = Math.max(healthMaxMs, performance.now() - started);
      healthChecks += 1;
      await sleep(250);
    }
  })();
  const first = await post();
  running = false;
  await monitor;
  const again = await post();
  return {
    size,
    firstMs: first.ms,
    againMs: again.ms,
    healthMaxMs,
    healthChecks,
    result: `${first.text} then ${again.text}`,
  };
}

export function printImports(results: ImportBench[]): void {
  console.log(
    `\n${"CSV import".padEnd(14)}${"first s".padStart(9)}${"again s".padStart(9)}${"health max ms".padStart(15)}`,
  );
  for (const r of results) {
    console.log(
      `${`${r.size} users`.padEnd(14)}${(r.firstMs / 1000).toFixed(1).padStart(9)}${(r.againMs / 1000).toFixed(1).padStart(9)}${r.healthMaxMs.toFixed(0).padStart(15)}  (${r.healthChecks} checks) ${r.result}`,
    );
  }
}

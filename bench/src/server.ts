import { type ChildProcess, spawn, spawnSync } from "node:child_process";

const root = new URL("../../", import.meta.url).pathname;

let built = false;

/**
 * Starts the real server on a port, as `npm start` runs it (the bundle, built here first so it
 * is never stale), and resolves once /api/health answers.
 */
export async function startServer(
  port: number,
  env: Record<string, string>,
  options: { onStdout?: (line: string) => void } = {},
): Promise<ChildProcess> {
  // Another server already on the port would answer the health poll and be measured instead.
  const busy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is already in use; stop whatever listens there`);
  if (!built) {
    const build = spawnSync(process.execPath, ["apps/server/build.mjs"], { cwd: root, stdio: "inherit" });
    if (build.status !== 0) throw new Error("the server bundle did not build");
    built = true;
  }
  // BENCH_CPU_PROF=dir: the server writes a V8 CPU profile there when it stops (open it in
  // Chrome's DevTools or summarise it with bench/src/profile-summary.ts).
  const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const child = spawn(process.execPath, [...profile, "--enable-source-maps", "apps/server/dist/main.mjs"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: "error",
      LOGIN_RATE_LIMIT: "100000000",
      DEMO_DATA: "false",
      ...env,
    },
    stdio: ["ignore", options.onStdout ? "pipe" : "ignore", "inherit"],
  });
  if (options.onStdout && child.stdout) {
    let rest = "";
    child.stdout.on("data", (chunk: Buffer) => {
      const lines = (rest + chunk.toString()).split("\n");
      rest = lines.pop() ?? "";
      for (const line of lines) options.onStdout?.(line);
    });
  }
  return new Promise<ChildProcess>((resolve, reject) => {
    const deadline = Date.now() + 120_000;
    const poll = async () => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.ok) return resolve(child);
      } catch {
        // not up yet
      }
      if (Date.now() > deadline || child.exitCode !== null) return reject(new Error("server did not start"));
      setTimeout(poll, 250);
    };
    void poll();
  });
}

/** Stops a server started here and waits for it to exit. */
export async function stopServer(child: ChildProcess): Promise<void> {
  child.kill("SIGTERM");
  await new Promise((r) => child.once("exit", r));
}

import { type ChildProcess, spawn } from "node:child_process";

const root = new URL("../../", import.meta.url).pathname;

/** Starts the real server (main.ts) on a port and resolves once /api/health answers. */
export async function startServer(port: number, env: Record<string, string>): Promise<ChildProcess> {
  // Another server already on the port would answer the health poll and be measured instead.
  const busy = await fetch(`http://127.0.0.1:${port}/api/health`).then(
    () => true,
    () => false,
  );
  if (busy) throw new Error(`port ${port} is already in use; stop whatever listens there`);
  const child = spawn(process.execPath, ["--import", "tsx", "apps/server/src/main.ts"], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      LOG_LEVEL: "error",
      LOGIN_RATE_LIMIT: "100000000",
      DEMO_DATA: "false",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
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

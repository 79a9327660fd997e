import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, onPostgres } from "../../test/helpers";

/*
 * Issue 27: on SIGTERM every request already sent on a keep-alive connection gets an answer
 * (served, or 503 with Retry-After), none is reset, and the process exits 0. A real server
 * process, since the connections and the signal are what is tested.
 */

const SERVER_DIR = path.resolve(import.meta.dirname, "../..");
const PASSWORD = "Shutdown-Test-1!";
const CONNECTIONS = 6;

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The HTTP/1.1 answers in `data`, in order (content-length or chunked bodies). */
function parseAnswers(data: Buffer): Answer[] {
  const answers: Answer[] = [];
  let at = 0;
  while (at < data.length) {
    const end = data.indexOf("\r\n\r\n", at);
    if (end < 0) break;
    const [statusLine = "", ...lines] = data.subarray(at, end).toString("latin1").split("\r\n");
    const headers = Object.fromEntries(
      lines.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
    );
    at = end + 4;
    let body: Buffer = Buffer.alloc(0);
    if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const lineEnd = data.indexOf("\r\n", at);
        if (lineEnd < 0) return answers;
        const size = Number.parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
        body = Buffer.concat([body, data.subarray(lineEnd + 2, lineEnd + 2 + size)]);
        at = lineEnd + 2 + size + 2;
        if (size === 0) break;
      }
    } else {
      const length = Number(headers["content-length"] ?? 0);
      if (at + length > data.length) return answers;
      body = data.subarray(at, at + length);
      at += length;
    }
    answers.push({ status: Number(statusLine.split(" ")[1]), headers, body: body.toString("utf8") });
  }
  return answers;
}

/** One keep-alive connection: everything it received until the server ended it, and how it ended. */
function connect(port: number) {
  const socket = net.connect(port, "127.0.0.1");
  const chunks: Buffer[] = [];
  let error: string | null = null;
  socket.on("data", (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve) => {
    socket.on("error", (err: NodeJS.ErrnoException) => {
      error = err.code ?? err.message;
    });
    socket.on("close", () => resolve());
  });
  const connected = new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  return {
    socket,
    connected,
    ended,
    received: () => Buffer.concat(chunks),
    error: () => error,
  };
}

const request = (method: string, url: string, token: string) =>
  [
    `${method} ${url} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Connection: keep-alive",
    `Authorization: Bearer ${token}`,
    "",
    "",
  ].join("\r\n");

// The server under test runs on PGlite (one data directory per process); the PostgreSQL leg
// has nothing to add to what is tested here.
describe.skipIf(onPostgres)("shutdown on SIGTERM", { timeout: 120_000 }, () => {
  let child: ChildProcess;
  let port: number;
  let dataDir: string;
  const output: string[] = [];

  beforeAll(async () => {
    port = await freePort();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-drain-"));
    child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: SERVER_DIR,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: "127.0.0.1",
        DATABASE_URL: "",
        DATA_DIR: dataDir,
        DEMO_DATA: "false",
        ADMIN_PASSWORD: PASSWORD,
        TEST_PASSWORD_HASHING: "true",
        PGLITE_FSYNC: "false",
        NOTIFICATION_JOB: "false",
        LOG_LEVEL: "warn",
        WORKERS: "1",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (c: Buffer) => output.push(c.toString()));
    child.stderr?.on("data", (c: Buffer) => output.push(c.toString()));
    for (;;) {
      if (child.exitCode !== null) throw new Error(`server ended:\n${output.join("")}`);
      try {
        if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 120_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("answers every request already sent on a keep-alive connection (200 or 503 with Retry-After), resets none, exits 0", async () => {
    const res = await fetch(`http://127.0.0.1:${port}/api/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ login: "superchris", password: PASSWORD }),
    });
    expect(res.status).toBe(200);
    const { token } = (await res.json()) as { token: string };

    // Six keep-alive connections, each used once already (idle, as a browser's are between calls).
    const connections = Array.from({ length: CONNECTIONS }, () => connect(port));
    await Promise.all(connections.map((c) => c.connected));
    await Promise.all(
      connections.map(
        (c) =>
          new Promise<void>((resolve) => {
            const onData = () => {
              if (parseAnswers(c.received()).length === 1) {
                c.socket.off("data", onData);
                resolve();
              }
            };
            c.socket.on("data", onData);
            c.socket.write(request("GET", "/api/notifications", token));
          }),
      ),
    );
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));

    // On each, a progress export (it takes a moment) sent, then SIGTERM while the requests are
    // on their way or being served.
    for (const c of connections) c.socket.write(request("GET", "/api/progress/admin/export/xlsx", token));
    child.kill("SIGTERM");
    await Promise.all(connections.map((c) => c.ended));
    expect(await exited, output.join("")).toBe(0);

    for (const c of connections) {
      expect(c.error(), "the connection was reset").toBeNull();
      const answers = parseAnswers(c.received()).slice(1);
      expect(answers.map((x) => x.status)).toHaveLength(1);
      const [answer] = answers as [Answer];
      expect([200, 503]).toContain(answer.status);
      if (answer.status === 503) {
        expect(Number(answer.headers["retry-after"])).toBeGreaterThan(0);
        expect(JSON.parse(answer.body)).toMatchObject({ error_code: 1108, status_code: 503 });
        expect(answer.headers.connection).toBe("close");
      }
    }
  });
});

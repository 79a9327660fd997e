import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { type PartnerPeer, startPartnerPeer } from "@carecampus/partner-peer";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { createPartnerClient } from "./client";

/*
 * docs/partner-openapi.yaml is the partner-facing contract: the reference partner (the test
 * peer) answers by it, and CareCampus's client asks only what it declares.
 */
const doc = parse(fs.readFileSync(new URL("../../../../docs/partner-openapi.yaml", import.meta.url), "utf8")) as {
  paths: Record<string, Record<string, { parameters?: { name: string; in: string }[] }>>;
  components: { schemas: Record<string, unknown> };
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv2020) => void)(ajv);
ajv.addSchema({ $id: "partner", components: doc.components });
const schema = (name: string) => {
  const validate = ajv.getSchema(`partner#/components/schemas/${name}`);
  if (!validate) throw new Error(`no schema ${name}`);
  return (value: unknown) => {
    const ok = validate(value);
    return ok ? "valid" : JSON.stringify(validate.errors);
  };
};

let peer: PartnerPeer;
const auth = () => ({
  authorization: `Basic ${Buffer.from(`${peer.clientId}:${peer.clientSecret}`).toString("base64")}`,
});

beforeAll(async () => {
  peer = await startPartnerPeer();
});
afterAll(() => peer?.close());

describe("the reference partner answers by docs/partner-openapi.yaml", () => {
  it("course list, launch token, progress and certificate", async () => {
    const courses = await (
      await fetch(`${peer.url}/v1/courses?training=sturzprophylaxe-grundlagen`, { headers: auth() })
    ).json();
    expect(schema("CourseList")(courses)).toBe("valid");
    expect((courses as { courses: unknown[] }).courses.length).toBeGreaterThan(0);

    const tokenRes = await fetch(`${peer.url}/v1/launch-tokens`, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json" },
      body: JSON.stringify({ user_ref: "cc-1", display_name: "Emma Berg" }),
    });
    expect(tokenRes.status).toBe(201);
    expect(schema("LaunchToken")(await tokenRes.json())).toBe("valid");

    const certificateId = await peer.complete("cc-1", "Emma Berg", "fall-risk-check");
    peer.setProgress("cc-2", "kinaesthetics-basics", 1);
    const progress = await (
      await fetch(`${peer.url}/v1/progress?training=sturzprophylaxe-grundlagen`, { headers: auth() })
    ).json();
    expect(schema("ProgressList")(progress)).toBe("valid");
    expect((progress as { progress: unknown[] }).progress).toHaveLength(2);

    const certificate = (await (
      await fetch(`${peer.url}/v1/certificates/${certificateId}`, { headers: auth() })
    ).json()) as {
      content: string;
    };
    expect(schema("Certificate")(certificate)).toBe("valid");
    expect(Buffer.from(certificate.content, "base64").subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("refuses a client without the right credentials", async () => {
    const res = await fetch(`${peer.url}/v1/courses?training=x`, {
      headers: { authorization: `Basic ${Buffer.from("carecampus:wrong").toString("base64")}` },
    });
    expect(res.status).toBe(401);
  });
});

describe("CareCampus's client asks only what docs/partner-openapi.yaml declares", () => {
  it("paths, query parameters, credentials and the token request's body", async () => {
    const seen: { method: string; url: URL; auth: string; body: string }[] = [];
    const answers: Record<string, unknown> = {
      "/v1/courses": { courses: [] },
      "/v1/progress": { progress: [] },
      "/v1/launch-tokens": { token: "t".repeat(32), valid_until: new Date().toISOString() },
    };
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        const url = new URL(req.url ?? "/", "http://x");
        seen.push({ method: req.method ?? "", url, auth: String(req.headers.authorization ?? ""), body });
        const answer = answers[url.pathname] ?? {
          certificate_id: "c1",
          user_ref: "cc-1",
          course_id: "k",
          filename: "a.pdf",
          content: Buffer.from("%PDF-1.4").toString("base64"),
          issued_at: new Date().toISOString(),
        };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(answer));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const client = createPartnerClient({
        url,
        clientId: "id",
        clientSecret: "secret",
        timeoutMs: 2000,
        retries: 0,
        cacheSeconds: 0,
        certify: new Map(),
        iconOrigins: [],
        httpsOnly: false,
      });
      await client.listCourses("haende");
      await client.progress("haende", "cc-1");
      await client.launchToken("cc-1", "Emma Berg");
      await client.certificate("c1");
      expect(seen).toHaveLength(4);
      for (const request of seen) {
        const template = Object.keys(doc.paths).find((p) =>
          new RegExp(`^${p.replace(/\{[^}]+\}/g, "[^/]+")}$`).test(request.url.pathname),
        );
        expect(template, request.url.pathname).toBeDefined();
        const operation = doc.paths[template as string]?.[request.method.toLowerCase()];
        expect(operation, `${request.method} ${template}`).toBeDefined();
        const declared = new Set((operation?.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name));
        for (const name of request.url.searchParams.keys()) expect(declared.has(name), name).toBe(true);
        expect(request.auth).toBe(`Basic ${Buffer.from("id:secret").toString("base64")}`);
        if (request.method === "POST") expect(schema("LaunchTokenRequest")(JSON.parse(request.body))).toBe("valid");
      }
    } finally {
      server.close();
    }
  });
});

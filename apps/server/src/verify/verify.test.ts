import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode, formatVerificationCode, newVerificationCode } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { createCast, createTestApp, createUser, statementsOf, type TestContext } from "../../test/helpers";
import { issueCertificate } from "../certificates/service";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { certificates, trainings, users } from "../db/schema";

/*
 * The public verification (issue 29): GET /api/public/verify/{code}, /v/{code} and /v, no login.
 * The clock stands on 22.11.2026 (Europe/Berlin).
 */

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let trainingId: number;
const NOW = new Date("2026-11-22T12:00:00Z");
const PUBLIC_URL = "https://campus.example.org";
const codes = {} as Record<"valid" | "expired" | "revoked" | "replaced" | "renewal" | "legacy" | "erased", string>;
let holderId: number;

const db = () => ctx.deps.database.db;
const issue = (userId: number, at: string, newest: { expiresAt: Date } | null = null) =>
  db().transaction(async (tx) => {
    const id = await issueCertificate(
      tx,
      userId,
      { id: trainingId, validityMonths: 12, points: 37, newest },
      new Date(at),
      ctx.deps.config.timeZone,
    );
    const [row] = await tx.select().from(certificates).where(eq(certificates.id, id));
    return row as typeof certificates.$inferSelect;
  });
const person = async (name: string, surname: string, email: string) => {
  const u = await createUser(ctx, ["employee"], cast.facilityA.id, { email });
  await db().update(users).set({ name, surname }).where(eq(users.id, u.id));
  return u.id;
};

beforeAll(async () => {
  ctx = await createTestApp({ countQueries: true, env: { PUBLIC_URL, VERIFY_RATE_PER_MINUTE: "10000" } });
  ctx.clock.now = NOW;
  cast = await createCast(ctx);
  await importPackage(db(), loadPackage(writeFixture()));
  const [t] = await db().select().from(trainings).where(eq(trainings.key, "haende"));
  trainingId = t?.id ?? 0;

  // The holder whose whole record the answers are checked against.
  holderId = cast.users.employee.id;
  await db()
    .update(users)
    .set({ name: "Şükrü", surname: "Łukaszewski", email: "sukru.private@example.org" })
    .where(eq(users.id, holderId));
  codes.valid = (await issue(holderId, "2026-06-01T08:00:00Z")).verificationCode;

  codes.expired = (
    await issue(await person("Erika", "Abgelaufen", "erika@example.org"), "2025-01-10T08:00:00Z")
  ).verificationCode;

  const revoked = await issue(await person("Rolf", "Widerruf", "rolf@example.org"), "2026-05-01T08:00:00Z");
  await db()
    .update(certificates)
    .set({ revokedAt: new Date("2026-09-15T10:00:00Z"), revokedBy: cast.users.administrator.id, revokeReason: "other" })
    .where(eq(certificates.id, revoked.id));
  codes.revoked = revoked.verificationCode;

  const renewer = await person("Nina", "Erneuert", "nina@example.org");
  const first = await issue(renewer, "2025-12-01T08:00:00Z");
  codes.replaced = first.verificationCode;
  // Renewed before it ran out: the new one runs from the old expiry (01.12.2026) to 01.12.2027.
  codes.renewal = (await issue(renewer, "2026-11-20T08:00:00Z", { expiresAt: first.expiresAt })).verificationCode;

  // A certificate from before issue 29: a 12-character code.
  const legacy = await issue(await person("Otto", "Altcode", "otto@example.org"), "2026-03-03T08:00:00Z");
  await db().update(certificates).set({ verificationCode: "3FA2B19C0D7E" }).where(eq(certificates.id, legacy.id));
  codes.legacy = "3FA2B19C0D7E";

  // An erased person: the retention job replaced the code by a pseudonym (privacy/erasure.ts).
  const erasedUser = await person("", "", "gone@example.org");
  const erased = await issue(erasedUser, "2026-04-04T08:00:00Z");
  await db().update(users).set({ erasedAt: NOW }).where(eq(users.id, erasedUser));
  await db()
    .update(certificates)
    .set({ verificationCode: `erased-${erased.id}` })
    .where(eq(certificates.id, erased.id));
  codes.erased = `erased-${erased.id}`;
});
afterAll(() => ctx.close());

const json = (code: string, headers: Record<string, string> = {}, remoteAddress = "192.0.2.10") =>
  ctx.app.inject({ method: "GET", url: `/api/public/verify/${encodeURIComponent(code)}`, headers, remoteAddress });
const page = (url: string, language?: string, remoteAddress = "192.0.2.10") =>
  ctx.app.inject({
    method: "GET",
    url,
    headers: language ? { "accept-language": language } : {},
    remoteAddress,
  });

describe("public verification", () => {
  it("says valid with what the paper shows, in JSON and HTML, without a login", async () => {
    const res = await json(codes.valid);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      code: formatVerificationCode(codes.valid),
      status: "valid",
      holder: "Şükrü Łukaszewski",
      training: "Händehygiene",
      topic: "Hygiene",
      facility: cast.facilityA.name,
      issued_at: "2026-06-01T08:00:00.000Z",
      valid_until: "2027-06-01T08:00:00.000Z",
    });
    const html = await page(`/v/${codes.valid}`);
    expect(html.statusCode).toBe(200);
    expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(html.body).toContain('<html lang="de">');
    for (const s of [
      "Gültig",
      "gültig bis 01.06.2027",
      "Şükrü Łukaszewski",
      "Händehygiene",
      "01.06.2026",
      cast.facilityA.name,
    ]) {
      expect(html.body).toContain(s);
    }
    expect(html.body).toContain(formatVerificationCode(codes.valid));
    expect(html.body).not.toContain("<script");
  });

  it("says expired (from its last day on, in TIME_ZONE days), revoked with the day, replaced with the newer one's validity", async () => {
    const expired = await json(codes.expired);
    expect(expired.json()).toMatchObject({ status: "expired", valid_until: "2026-01-10T08:00:00.000Z" });
    expect(expired.json()).not.toHaveProperty("revoked_on");
    expect((await page(`/v/${codes.expired}`)).body).toContain("war gültig bis 10.01.2026 und ist abgelaufen");

    const revoked = await json(codes.revoked);
    expect(revoked.json()).toMatchObject({ status: "revoked", revoked_on: "2026-09-15" });
    const revokedPage = await page(`/v/${codes.revoked}`, "en");
    expect(revokedPage.body).toContain("Revoked");
    expect(revokedPage.body).toContain("was revoked on 15.09.2026");

    const replaced = await json(codes.replaced);
    expect(replaced.json()).toMatchObject({
      status: "replaced",
      valid_until: "2026-12-01T08:00:00.000Z",
      replaced_by: { valid_until: "2027-12-01T08:00:00.000Z" },
    });
    expect((await page(`/v/${codes.replaced}`)).body).toContain("Das neuere ist gültig bis 01.12.2027");
    expect((await json(codes.renewal)).json()).toMatchObject({ status: "valid" });

    // The day it runs out (Berlin), the certificate is no proof any more, as on every screen.
    ctx.clock.now = new Date("2027-06-01T05:00:00Z");
    try {
      expect((await json(codes.valid)).json().status).toBe("expired");
      ctx.clock.now = new Date("2027-05-31T21:59:00Z");
      expect((await json(codes.valid)).json().status).toBe("valid");
    } finally {
      ctx.clock.now = NOW;
    }
  });

  it("answers an unknown code 404 in the §8 format and a readable page; an erased person's certificate is unknown", async () => {
    for (const code of [newVerificationCode(), codes.erased, "3FA2B19C0D7F"]) {
      const res = await json(code);
      expect(res.statusCode, code).toBe(404);
      expect(res.json(), code).toMatchObject({ error_code: ErrorCode.certificateNotFound, status_code: 404 });
      const html = await page(`/v/${encodeURIComponent(code)}`);
      expect(html.statusCode).toBe(404);
      expect(html.body).toContain("Unbekannter Code");
      expect(html.body).not.toContain("<dl>");
    }
    // A typo in a new code: the check character says so.
    const typo = `${codes.valid.slice(0, 3)}${codes.valid[3] === "0" ? "1" : "0"}${codes.valid.slice(4)}`;
    expect((await page(`/v/${typo}`)).body).toContain("vertippt");
    expect((await json("x".repeat(65))).statusCode).toBe(400);
  });

  it("finds a code typed with spaces, dashes and lower case, and the old 12-character codes", async () => {
    const typed = formatVerificationCode(codes.valid).toLowerCase().replaceAll("-", " - ");
    expect((await json(typed)).json().status).toBe("valid");
    expect((await page(`/v?code=${encodeURIComponent(typed)}`)).body).toContain("Şükrü Łukaszewski");
    const legacy = await json("3fa2-b19c 0d7e");
    expect(legacy.statusCode).toBe(200);
    expect(legacy.json()).toMatchObject({ code: "3FA2B19C0D7E", status: "valid", holder: "Otto Altcode" });
    expect((await page("/v/3FA2B19C0D7E")).body).toContain("Otto Altcode");
  });

  it("shows nothing of the holder's record beyond the name: no login, e-mail, id, score or role", async () => {
    const [row] = await db().select().from(users).where(eq(users.id, holderId));
    const [cert] = await db().select().from(certificates).where(eq(certificates.verificationCode, codes.valid));
    const res = await json(codes.valid);
    const body = res.json() as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(
      ["code", "status", "holder", "training", "topic", "facility", "issued_at", "valid_until"].sort(),
    );
    const html = (await page(`/v/${codes.valid}`)).body;
    const values = Object.values(body).map(String);
    const checked: string[] = [];
    for (const [column, value] of Object.entries(row ?? {})) {
      if (column === "name" || column === "surname" || value === null) continue;
      const texts =
        value instanceof Date ? [value.toISOString()] : Array.isArray(value) ? value.map(String) : [String(value)];
      for (const text of texts) {
        // Every value is absent from the JSON's values; long enough ones from the page and the JSON text too.
        expect(values, column).not.toContain(text);
        // Flags (true/false) stand in the page's markup anyway: they are checked in the JSON only.
        if (text.length >= 3 && typeof value !== "boolean") {
          expect(res.body, column).not.toContain(text);
          expect(html, column).not.toContain(text);
        }
        checked.push(column);
      }
    }
    expect(checked).toEqual(expect.arrayContaining(["id", "login", "email", "passwordHash", "facilityId"]));
    // Nor the roles (a table of their own), the certificate's points or its id.
    for (const role of cast.users.employee.roles) {
      expect(res.body).not.toContain(role);
      expect(html).not.toContain(role);
    }
    expect(values).not.toContain(String(cert?.points));
    expect(values).not.toContain(String(cert?.id));
    expect(html).not.toMatch(/\b37\b/);
  });

  it("keeps every answer out of caches and search engines, errors too", async () => {
    const answers = {
      json: await json(codes.valid),
      jsonUnknown: await json(newVerificationCode()),
      jsonBad: await json("x".repeat(65)),
      page: await page(`/v/${codes.valid}`),
      pageUnknown: await page(`/v/${newVerificationCode()}`),
      form: await page("/v"),
      formEmpty: await page("/v?code="),
    };
    for (const [name, res] of Object.entries(answers)) {
      expect(res.headers["cache-control"], name).toBe("no-store");
      expect(res.headers["x-robots-tag"], name).toMatch(/^noindex/);
    }
  });

  it("speaks the viewer's language by Accept-Language, German by default", async () => {
    const cases: [string | undefined, string, string][] = [
      [undefined, "de", "Gültig"],
      ["en-US,en;q=0.9", "en", "Valid"],
      ["fr-CH, fr;q=0.9", "fr", "Valide"],
      ["nl, es;q=0.8, en;q=0.5", "es", "Válido"],
      ["pt-BR", "pt-BR", "Válido"],
      ["pt", "pt-BR", "Verificar um certificado"],
      ["br", "de", "Gültig"],
      ["en;q=0, fr;q=0.1", "fr", "Valide"],
    ];
    for (const [header, lang, word] of cases) {
      const res = await page(`/v/${codes.valid}`, header);
      expect(res.body, header).toContain(`<html lang="${lang}">`);
      expect(res.body, header).toContain(word);
    }
  });

  it("offers a form at /v (GET, no script) that answers at once; an empty one says what to do", async () => {
    const form = await page("/v", "en");
    expect(form.statusCode).toBe(200);
    expect(form.body).toMatch(/<form method="get" action="\/v">/);
    expect(form.body).toMatch(/<label for="code">Verification code<\/label>/);
    const empty = await page("/v?code=%20", "en");
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain("Please enter a verification code.");
    expect(empty.body).toContain('aria-invalid="true"');
    const unknown = await page(`/v?code=${encodeURIComponent("<b>nope</b>")}`, "en");
    expect(unknown.statusCode).toBe(404);
    expect(unknown.body).not.toContain("<b>nope</b>");
    expect(unknown.body).toContain("&#60;b&#62;nope&#60;/b&#62;");
  });

  it("runs the same statements for an unknown code as for a known one", async () => {
    const statements = (url: string) => statementsOf(() => page(url));
    for (const prefix of ["/api/public/verify/", "/v/"]) {
      const known = await statements(`${prefix}${codes.valid}`);
      expect(known).toEqual(["insert into rate_limits", "select certificates"]);
      expect(await statements(`${prefix}${newVerificationCode()}`), prefix).toEqual(known);
      expect(await statements(`${prefix}nonsense`), prefix).toEqual(known);
    }
  });
});

describe("the certificate's QR code", () => {
  it("holds PUBLIC_URL/v/<code>, the PDF prints the address and the code, and the address gives the valid page", async () => {
    const [cert] = await db().select().from(certificates).where(eq(certificates.verificationCode, codes.valid));
    const res = await ctx.app.inject({
      method: "GET",
      url: `/api/progress/export/certificate?id=${cert?.id}&token=${cast.tokens.employee}`,
    });
    expect(res.statusCode).toBe(200);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-qr-"));
    const file = path.join(dir, "c.pdf");
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    expect(text).toContain(formatVerificationCode(codes.valid));
    expect(text).toContain(`${PUBLIC_URL}/v`);
    execFileSync("pdftoppm", ["-r", "200", "-png", "-singlefile", file, path.join(dir, "page")]);
    const decoded = execFileSync("zbarimg", ["--quiet", "--raw", path.join(dir, "page.png")], {
      encoding: "utf8",
    }).trim();
    expect(decoded).toBe(`${PUBLIC_URL}/v/${codes.valid}`);
    const address = new URL(decoded);
    const opened = await page(address.pathname);
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain("Gültig");
    expect(opened.body).toContain("Şükrü Łukaszewski");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("the rate limit", () => {
  it("answers 429 with Retry-After past VERIFY_RATE_PER_MINUTE per IP, JSON and pages together; other IPs go on", async () => {
    const limited = await createTestApp({ env: { VERIFY_RATE_PER_MINUTE: "3" } });
    try {
      const get = (url: string, ip: string) =>
        limited.app.inject({ method: "GET", url, remoteAddress: ip, headers: { "accept-language": "en" } });
      const code = newVerificationCode();
      expect((await get(`/api/public/verify/${code}`, "198.51.100.1")).statusCode).toBe(404);
      expect((await get(`/v/${code}`, "198.51.100.1")).statusCode).toBe(404);
      expect((await get("/v", "198.51.100.1")).statusCode).toBe(200);
      const refused = await get(`/api/public/verify/${code}`, "198.51.100.1");
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ error_code: ErrorCode.rateLimited, status_code: 429 });
      expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
      expect(Number(refused.headers["retry-after"])).toBeLessThanOrEqual(60);
      expect(refused.headers["cache-control"]).toBe("no-store");
      const refusedPage = await get(`/v/${code}`, "198.51.100.1");
      expect(refusedPage.statusCode).toBe(429);
      expect(refusedPage.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(Number(refusedPage.headers["retry-after"])).toBeGreaterThan(0);
      expect(refusedPage.body).toContain("Too many requests");
      expect(refusedPage.headers["x-robots-tag"]).toMatch(/^noindex/);
      expect((await get("/v", "198.51.100.1")).statusCode).toBe(429);
      // Another address goes on; after the minute the first one does too.
      expect((await get(`/api/public/verify/${code}`, "198.51.100.2")).statusCode).toBe(404);
      limited.clock.now = new Date(limited.clock.now.getTime() + 61_000);
      expect((await get(`/v/${code}`, "198.51.100.1")).statusCode).toBe(404);
    } finally {
      await limited.close();
    }
  });
});

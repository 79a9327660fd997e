import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ErrorCode, formatVerificationCode } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { loadPackage } from "../content/package";
import { importPackage } from "../content/service";
import { certificates, trainings, users } from "../db/schema";
import { issueCertificate } from "./service";

let ctx: TestContext;
let cast: Awaited<ReturnType<typeof createCast>>;
let certId: number;

beforeAll(async () => {
  ctx = await createTestApp();
  cast = await createCast(ctx);
  const db = ctx.deps.database.db;
  await importPackage(db, loadPackage(writeFixture()));
  // A name the standard PDF fonts cannot write.
  await db.update(users).set({ name: "Şükrü", surname: "Łukaszewski" }).where(eq(users.id, cast.users.employee.id));
  const [t] = await db.select().from(trainings).where(eq(trainings.key, "haende"));
  certId = await db.transaction((tx) =>
    issueCertificate(
      tx,
      cast.users.employee.id,
      { id: t?.id ?? 0, validityMonths: 12, points: 10, newest: null },
      new Date("2026-11-22T09:00:00Z"),
      ctx.deps.config.timeZone,
    ),
  );
});
afterAll(() => ctx.close());

const download = (query: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({ method: "GET", url: `/api/progress/export/certificate?${query}`, headers });

describe("certificate PDF", () => {
  it("is a one-page PDF with the name, training, topic, dates, facility and code", async () => {
    const res = await download(`id=${certId}&token=${cast.tokens.employee}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    // A download (RFC 6266), named in full in UTF-8, with a transliterated ASCII fallback.
    const disposition = res.headers["content-disposition"] as string;
    expect(disposition).toMatch(/^attachment; /);
    expect(disposition).toMatch(/; filename="?Zertifikat-Haendehygiene-Suekrue-Lukaszewski\.pdf"?;/);
    expect(disposition).toContain(
      `filename*=UTF-8''${encodeURIComponent("Zertifikat-Händehygiene-Şükrü-Łukaszewski.pdf")}`,
    );
    expect(res.headers["cache-control"]).toBe("private, no-store");
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cc-pdf-")), "c.pdf");
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
    for (const s of [
      "ZERTIFIKAT",
      "Şükrü Łukaszewski",
      "Händehygiene",
      "Themenbereich: Hygiene",
      "22.11.2026",
      "22.11.2027",
      cast.facilityA.name,
    ]) {
      expect(text).toContain(s);
    }
    // The code in groups for typing (80 random bits and a check character), and where to type it.
    const [cert] = await ctx.deps.database.db.select().from(certificates).where(eq(certificates.id, certId));
    expect(cert?.verificationCode).toMatch(/^[0-9A-HJKMNP-TV-Z]{17}$/);
    expect(text).toContain(formatVerificationCode(cert?.verificationCode ?? "-"));
    expect(text).toContain(`${ctx.deps.config.publicUrl}/v`);
    const info = execFileSync("pdfinfo", [file], { encoding: "utf8" });
    expect(info).toMatch(/Pages:\s+1/);
  });

  it("goes to its owner and the staff who may see that user, to nobody else (1011)", async () => {
    for (const who of ["employee", "administrator", "supervisor", "contentmanager", "superchris"] as const) {
      expect((await download(`id=${certId}`, bearer(cast.tokens[who]))).statusCode, who).toBe(200);
    }
    for (const who of ["employeeB", "administratorB"] as const) {
      const res = await download(`id=${certId}`, bearer(cast.tokens[who]));
      expect(res.statusCode, who).toBe(404);
      expect(res.json().error_code).toBe(ErrorCode.certificateNotFound);
    }
    expect((await download(`id=999999`, bearer(cast.tokens.superchris))).json().error_code).toBe(
      ErrorCode.certificateNotFound,
    );
    expect((await download(`id=${certId}`)).statusCode).toBe(401);
    expect((await download(`id=${certId}&token=forged`)).statusCode).toBe(401);
    expect((await download("id=abc", bearer(cast.tokens.employee))).statusCode).toBe(400);
  });
});

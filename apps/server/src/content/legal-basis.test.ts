import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { CONTENT_LIMITS, ErrorCode } from "@carecampus/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { problemsOf, writeFixture } from "../../test/content-fixture";
import { bearer, createCast, createTestApp, type TestContext } from "../../test/helpers";
import { issueCertificate } from "../certificates/service";
import { trainings } from "../db/schema";
import { loadPackage } from "./package";
import { importPackage } from "./service";

/*
 * A training's legal basis (show-legal-compliance, README "Runtime settings"): from the content
 * package or the authoring dialog, sent with the training, printed on the certificate only where
 * the installation shows it.
 */

let on: TestContext;
let castOn: Awaited<ReturnType<typeof createCast>>;

beforeAll(async () => {
  on = await createTestApp({ env: { SHOW_LEGAL_COMPLIANCE: "true" } });
  castOn = await createCast(on);
});
afterAll(() => on.close());

const trainingRow = async (ctx: TestContext, key: string) => {
  const [row] = await ctx.deps.database.db.select().from(trainings).where(eq(trainings.key, key));
  if (!row) throw new Error(`no training ${key}`);
  return row;
};

/** The training as its learner's page receives it. */
async function learnerTraining(ctx: TestContext, token: string, key: string) {
  const t = await trainingRow(ctx, key);
  const res = await ctx.app.inject({
    method: "GET",
    url: `/api/progress/topics/${t.topicId}/trainings/${t.id}/questionnaires`,
    headers: bearer(token),
  });
  expect(res.statusCode).toBe(200);
  return res.json().training as { name: string; legal_basis: string | null };
}

/** The certificate's text as pdftotext reads it, and its page count. */
async function certificateText(ctx: TestContext, token: string, id: number) {
  const res = await ctx.app.inject({ method: "GET", url: `/api/progress/export/certificate?id=${id}&token=${token}` });
  expect(res.statusCode).toBe(200);
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "cc-legal-")), "c.pdf");
  fs.writeFileSync(file, res.rawPayload);
  const text = execFileSync("pdftotext", ["-layout", file, "-"], { encoding: "utf8" });
  const pages = /Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [file], { encoding: "utf8" }))?.[1];
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return { text, pages: Number(pages) };
}

async function certify(ctx: TestContext, userId: number, key: string) {
  const t = await trainingRow(ctx, key);
  return ctx.deps.database.db.transaction((tx) =>
    issueCertificate(
      tx,
      userId,
      { id: t.id, validityMonths: 12, points: 10, newest: null },
      new Date("2026-11-22T09:00:00Z"),
      ctx.deps.config.timeZone,
    ),
  );
}

describe("legal basis in the content package", () => {
  it("is read as one line, stored and sent with the training; a training without one has none", async () => {
    // Runs of spaces (a folded YAML line reads as one line) become one space.
    await importPackage(
      on.deps.database.db,
      loadPackage(writeFixture({ legalBasis: '"§ 35 Abs. 1 IfSG,\\n   § 14 BioStoffV"' })),
    );
    expect((await trainingRow(on, "haende")).legalBasis).toBe("§ 35 Abs. 1 IfSG, § 14 BioStoffV");
    expect(await learnerTraining(on, castOn.tokens.employee, "haende")).toMatchObject({
      name: "Händehygiene",
      legal_basis: "§ 35 Abs. 1 IfSG, § 14 BioStoffV",
    });
    expect((await learnerTraining(on, castOn.tokens.employee, "kurs")).legal_basis).toBeNull();
  });

  it("is updated by a newer version of the package and removed when the new version has none", async () => {
    await importPackage(
      on.deps.database.db,
      loadPackage(writeFixture({ version: "1.1.0", legalBasis: "§ 14 BioStoffV" })),
    );
    expect((await trainingRow(on, "haende")).legalBasis).toBe("§ 14 BioStoffV");
    // The same version again changes nothing.
    await importPackage(on.deps.database.db, loadPackage(writeFixture({ version: "1.1.0", legalBasis: "Anders" })));
    expect((await trainingRow(on, "haende")).legalBasis).toBe("§ 14 BioStoffV");
    await importPackage(on.deps.database.db, loadPackage(writeFixture({ version: "1.2.0" })));
    expect((await trainingRow(on, "haende")).legalBasis).toBeNull();
    await importPackage(
      on.deps.database.db,
      loadPackage(writeFixture({ version: "1.3.0", legalBasis: '"§ 35 Abs. 1 IfSG, § 14 BioStoffV"' })),
    );
    expect((await trainingRow(on, "haende")).legalBasis).toBe("§ 35 Abs. 1 IfSG, § 14 BioStoffV");
  });

  it("refuses a package whose legal basis is too long or not text, naming file and field", () => {
    const long = "§".repeat(CONTENT_LIMITS.legalBasis + 1);
    expect(problemsOf(writeFixture({ legalBasis: long }))).toEqual([
      expect.stringMatching(/^trainings\/haende\.yaml: legal_basis: .*200/),
    ]);
    expect(problemsOf(writeFixture({ legalBasis: "§".repeat(CONTENT_LIMITS.legalBasis) }))).toEqual([]);
    expect(problemsOf(writeFixture({ legalBasis: "[1, 2]" }))).toEqual([
      expect.stringMatching(/^trainings\/haende\.yaml: legal_basis: /),
    ]);
  });
});

describe("legal basis in authoring", () => {
  const write = (token: string, id: number, body: unknown) =>
    on.app.inject({
      method: "PUT",
      url: `/api/authoring/trainings/${id}`,
      headers: bearer(token),
      payload: body as object,
    });

  async function trainingBody(legal: unknown) {
    const t = await trainingRow(on, "haende");
    return {
      id: t.id,
      body: {
        topic_id: t.topicId,
        name: t.name,
        icon: t.icon,
        validity_months: t.validityMonths,
        passive: t.passive,
        points: t.points,
        wiki_link: t.wikiLink,
        ...(legal === undefined ? {} : { legal_basis: legal }),
      },
    };
  }

  it("a Super-Admin sets it; the editor's tree and the learner see it", async () => {
    const { id, body } = await trainingBody("  Art. 32 Abs. 4  DSGVO ");
    expect((await write(castOn.tokens.administrator, id, body)).statusCode).toBe(403);
    const res = await write(castOn.tokens.contentmanager, id, body);
    expect(res.statusCode).toBe(200);
    expect((await trainingRow(on, "haende")).legalBasis).toBe("Art. 32 Abs. 4 DSGVO");
    const tree = (
      await on.app.inject({ method: "GET", url: "/api/authoring", headers: bearer(castOn.tokens.contentmanager) })
    ).json() as { topics: { trainings: { id: number; legal_basis: string | null }[] }[] };
    const inTree = tree.topics.flatMap((t) => t.trainings).find((t) => t.id === id);
    expect(inTree?.legal_basis).toBe("Art. 32 Abs. 4 DSGVO");
    expect((await learnerTraining(on, castOn.tokens.employee, "haende")).legal_basis).toBe("Art. 32 Abs. 4 DSGVO");
  });

  it("refuses one that is too long with a spec §8 error and changes nothing", async () => {
    const { id, body } = await trainingBody("x".repeat(CONTENT_LIMITS.legalBasis + 1));
    const res = await write(castOn.tokens.contentmanager, id, { ...body, name: "Umbenannt" });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error_code: ErrorCode.validation, status_code: 400 });
    expect(res.json().message).toContain("legal_basis");
    const row = await trainingRow(on, "haende");
    expect(row).toMatchObject({ name: "Händehygiene", legalBasis: "Art. 32 Abs. 4 DSGVO" });
    expect((await write(castOn.tokens.contentmanager, id, { ...body, legal_basis: 42 })).statusCode).toBe(400);
  });

  it("blank, null or left out: the training has none", async () => {
    for (const legal of ["   ", null, undefined]) {
      const { id, body } = await trainingBody("§ 4 LasthandhabV");
      expect((await write(castOn.tokens.contentmanager, id, body)).statusCode).toBe(200);
      const cleared = await write(castOn.tokens.contentmanager, id, (await trainingBody(legal)).body);
      expect(cleared.statusCode, String(legal)).toBe(200);
      expect((await trainingRow(on, "haende")).legalBasis, String(legal)).toBeNull();
    }
  });
});

describe("legal basis on the certificate", () => {
  it("is printed with show-legal-compliance, on one page even at its longest", async () => {
    const t = await trainingRow(on, "haende");
    const body = {
      topic_id: t.topicId,
      name: t.name,
      icon: t.icon,
      validity_months: 12,
      passive: false,
      points: 10,
      wiki_link: null,
    };
    const put = (legal: string) =>
      on.app.inject({
        method: "PUT",
        url: `/api/authoring/trainings/${t.id}`,
        headers: bearer(castOn.tokens.contentmanager),
        payload: { ...body, legal_basis: legal },
      });
    expect((await put("§ 35 Abs. 1 IfSG, § 14 BioStoffV")).statusCode).toBe(200);
    const cert = await certify(on, castOn.users.employee.id, "haende");
    const short = await certificateText(on, castOn.tokens.employee, cert);
    expect(short.text).toContain("Rechtsgrundlage / legal basis");
    expect(short.text).toContain("§ 35 Abs. 1 IfSG, § 14 BioStoffV");
    expect(short.pages).toBe(1);

    // 200 characters: wrapped (pdftotext reads it back line by line), still one page.
    const words =
      "§ 4 DGUV Vorschrift 1, § 12 ArbSchG, § 14 GefStoffV, § 14 BioStoffV, § 4 LasthandhabV, Art. 32 Abs. 4 DSGVO, §§ 42, 43 IfSG, § 4 LMHV, VO (EG) Nr. 852/2004 Anhang II Kap. XII, ASR A2.2, ASR A2.3 Ende";
    const longest = words.padEnd(CONTENT_LIMITS.legalBasis, "!");
    expect(longest).toHaveLength(CONTENT_LIMITS.legalBasis);
    expect((await put(longest)).statusCode).toBe(200);
    const long = await certificateText(on, castOn.tokens.employee, cert);
    expect(long.pages).toBe(1);
    const printed = long.text.replace(/\s+/g, " ");
    expect(printed).toContain("§ 4 DGUV Vorschrift 1, § 12 ArbSchG");
    expect(printed).toContain("ASR A2.3 Ende!");
    // The verification code still stands below it.
    expect(long.text).toContain("Prüfcode / verification code");
  });

  it("is not printed for a training without one", async () => {
    const cert = await certify(on, castOn.users.employee.id, "kurs");
    const { text } = await certificateText(on, castOn.tokens.employee, cert);
    expect(text).toContain("Reanimationskurs");
    expect(text).not.toContain("Rechtsgrundlage");
  });

  describe("where the installation does not show it (the default)", () => {
    let off: TestContext;
    let castOff: Awaited<ReturnType<typeof createCast>>;
    beforeAll(async () => {
      off = await createTestApp();
      castOff = await createCast(off);
    });
    afterAll(() => off.close());

    it("is not printed", async () => {
      await importPackage(
        off.deps.database.db,
        loadPackage(writeFixture({ legalBasis: '"§ 35 Abs. 1 IfSG, § 14 BioStoffV"' })),
      );
      expect((await trainingRow(off, "haende")).legalBasis).toBe("§ 35 Abs. 1 IfSG, § 14 BioStoffV");
      const cert = await certify(off, castOff.users.employee.id, "haende");
      const { text } = await certificateText(off, castOff.tokens.employee, cert);
      expect(text).toContain("Händehygiene");
      expect(text).not.toContain("Rechtsgrundlage");
      expect(text).not.toContain("IfSG");
    });
  });
});

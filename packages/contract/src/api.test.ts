import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { api, endpointUrl, fillPath, matchDownload, queryString } from "./api";
import { apiTable } from "./api-table";
import { endpoints } from "./endpoints";

describe("the light table (api.ts)", () => {
  it("has exactly the full table's calls, each with its name, method, path and kind", () => {
    expect(Object.keys(api)).toEqual(Object.keys(endpoints));
    for (const [name, e] of Object.entries(endpoints)) {
      expect(api[name as keyof typeof api], name).toEqual({ name, method: e.method, path: e.path, kind: e.kind });
    }
    // Generated (npm run gen:api): a row per call, nothing by hand.
    expect(Object.keys(apiTable)).toHaveLength(Object.keys(endpoints).length);
  });

  it("keeps zod out of what the web client needs on the login and in the shell", () => {
    for (const file of [
      "api.ts",
      "api-table.ts",
      "errors.ts",
      "roles.ts",
      "settings-core.ts",
      "constants.ts",
      "messages.ts",
      "rules/help.ts",
      "rules/calendar.ts",
      "rules/session.ts",
    ]) {
      const source = fs.readFileSync(new URL(file, import.meta.url), "utf8");
      const runtimeImports = [...source.matchAll(/^import (?!type )[^;]*from "([^"]+)"/gm)].map((m) => m[1]);
      expect(
        runtimeImports.filter((from) => from === "zod" || from?.includes("schemas") || from === "./endpoints"),
        file,
      ).toEqual([]);
    }
  });
});

describe("URLs from the table", () => {
  it("fills and encodes path parameters, and refuses a missing one", () => {
    expect(fillPath(api.questionNext.path, { topic: 1, training: 22, q: 3 })).toBe(
      "/progress/topics/1/trainings/22/questionnaires/3/questions",
    );
    expect(fillPath(api.staticIcon.path, { file: "icon_a b/c.svg" })).toBe("/static/icon/icon_a%20b%2Fc.svg");
    expect(() => fillPath(api.adminUserGet.path, {})).toThrow(/id/);
  });

  it("serialises the defined query values", () => {
    expect(queryString({ facilityName: "Haus Sonnen & Hof", topicId: 4, none: undefined })).toBe(
      "?facilityName=Haus%20Sonnen%20%26%20Hof&topicId=4",
    );
    expect(queryString({ a: undefined })).toBe("");
    expect(queryString(undefined)).toBe("");
    expect(endpointUrl(api.certificatePdf, { query: { id: 9 } })).toBe("/api/progress/export/certificate?id=9");
    expect(endpointUrl(endpoints.certificatePdf, { query: { id: 9 } })).toBe("/api/progress/export/certificate?id=9");
  });

  it("reads a download link back into its entry, and nothing else", () => {
    const found = matchDownload("/api/progress/export/certificate?id=9");
    expect(found?.endpoint).toBe(api.certificatePdf);
    expect(found?.query).toEqual({ id: "9" });
    expect(matchDownload("/api/static/video/12")).toMatchObject({ params: { id: "12" }, query: {} });
    expect(matchDownload("/api/auth/admin/users")).toBeNull();
    expect(matchDownload("https://example.org/api/static/video/12")).toBeNull();
    expect(matchDownload("/topic/1/training/2")).toBeNull();
  });
});

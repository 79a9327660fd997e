import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { MIN_TOKEN_LIFETIME_SECONDS, TOKEN_REFRESH_LEAD_SECONDS } from "@carecampus/contract";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("configuration", () => {
  it("counts days in Europe/Berlin unless TIME_ZONE names another zone, and serves it to the browser", () => {
    expect(loadConfig({}).timeZone).toBe("Europe/Berlin");
    const config = loadConfig({ TIME_ZONE: "America/New_York" });
    expect(config.timeZone).toBe("America/New_York");
    expect(config.settings["time-zone"]).toBe("America/New_York");
  });

  it("takes CONTENT_LANGUAGES as the translation languages, the interface languages unless set", () => {
    expect(loadConfig({}).contentLanguages).toEqual([]);
    expect(loadConfig({ MULTI_LANGUAGE: "de,en,fr" }).contentLanguages).toEqual(["en", "fr"]);
    expect(loadConfig({ MULTI_LANGUAGE: "de,en", CONTENT_LANGUAGES: "en,tr,pl,ar" }).contentLanguages).toEqual([
      "en",
      "tr",
      "pl",
      "ar",
    ]);
    expect(() => loadConfig({ CONTENT_LANGUAGES: "en,türkisch" })).toThrow(ConfigError);
    expect(() => loadConfig({ CONTENT_LANGUAGES: "en,türkisch" })).toThrow(/CONTENT_LANGUAGES/);
  });

  it("creates demo data on PGlite unless DEMO_DATA=false, on PostgreSQL only with DEMO_DATA=true", () => {
    expect(loadConfig({}).demoData).toBe(true);
    expect(loadConfig({ DEMO_DATA: "" }).demoData).toBe(true);
    expect(loadConfig({ DEMO_DATA: "false" }).demoData).toBe(false);
    const pg = { DATABASE_URL: "postgres://cc@db.example/carecampus" };
    expect(loadConfig(pg).demoData).toBe(false);
    expect(loadConfig({ ...pg, DEMO_DATA: "" }).demoData).toBe(false);
    expect(loadConfig({ ...pg, DEMO_DATA: "0" }).demoData).toBe(false);
    expect(loadConfig({ ...pg, DEMO_DATA: "true" }).demoData).toBe(true);
    expect(loadConfig({ ...pg, DEMO_DATA: "1" }).demoData).toBe(true);
    expect(() => loadConfig({ ...pg, DEMO_DATA: "yes" })).toThrow(/DEMO_DATA/);
  });

  it("takes PUBLIC_URL as an absolute http(s) address in one form, http://localhost:PORT unless set", () => {
    expect(loadConfig({}).publicUrl).toBe("http://localhost:3000");
    expect(loadConfig({ PORT: "3311" }).publicUrl).toBe("http://localhost:3311");
    expect(loadConfig({ PUBLIC_URL: "" }).publicUrl).toBe("http://localhost:3000");
    expect(loadConfig({ PUBLIC_URL: "https://Training.Example.org/" }).publicUrl).toBe("https://training.example.org");
    expect(loadConfig({ PUBLIC_URL: "https://example.org/campus//" }).publicUrl).toBe("https://example.org/campus");
    expect(loadConfig({ PUBLIC_URL: "http://example.org:8080" }).publicUrl).toBe("http://example.org:8080");
    for (const bad of [
      "example.org",
      "/campus",
      "ftp://example.org",
      "https://example.org/?a=1",
      "https://u:p@example.org",
    ]) {
      expect(() => loadConfig({ PUBLIC_URL: bad }), bad).toThrow(/PUBLIC_URL/);
    }
  });

  it("starts WORKERS server processes only on PostgreSQL", () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ DATABASE_URL: "postgres://cc@db.example/carecampus", WORKERS: "4" }).workers).toBe(4);
    expect(() => loadConfig({ WORKERS: "2" })).toThrow(/WORKERS: more than one server process needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: "postgres://cc@db.example/carecampus", WORKERS: "0" })).toThrow(/WORKERS/);
  });

  it("gives each process a pool of DATABASE_POOL_SIZE connections, 10 unless set", () => {
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_POOL_SIZE: "30" }).databasePoolSize).toBe(30);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: "0" })).toThrow(/DATABASE_POOL_SIZE/);
  });

  it("refuses an unknown time zone at boot, naming the variable", () => {
    expect(() => loadConfig({ TIME_ZONE: "Europe/Atlantis" })).toThrow(ConfigError);
    expect(() => loadConfig({ TIME_ZONE: "Europe/Atlantis" })).toThrow(
      /TIME_ZONE: unknown time zone "Europe\/Atlantis"/,
    );
  });

  it("configures a partner of external courses only with EXTERNAL_COURSES_URL, and reads which courses count", () => {
    expect(loadConfig({ SHOW_EXTERNAL_TRAININGS: "true" }).partner).toBeNull();
    const config = loadConfig({
      EXTERNAL_COURSES_URL: "https://partner.example/api/",
      EXTERNAL_COURSES_CLIENT_ID: "cc",
      EXTERNAL_COURSES_CLIENT_SECRET: "s",
      EXTERNAL_COURSES_CERTIFY: "fall-risk-check=sturzprophylaxe-grundlagen, a.b=haende",
    });
    expect(config.partner?.url).toBe("https://partner.example/api");
    expect([...(config.partner?.certify ?? [])]).toEqual([
      ["fall-risk-check", "sturzprophylaxe-grundlagen"],
      ["a.b", "haende"],
    ]);
    expect(config.partner).toMatchObject({ timeoutMs: 5000, retries: 2, cacheSeconds: 60 });
    expect(loadConfig({}).partnerPeer).toBeNull();
    expect(loadConfig({ PARTNER_PEER: "true" }).partnerPeer?.port).toBe(0);
  });

  it("refuses a malformed EXTERNAL_COURSES_CERTIFY or retry count at boot, naming the variable", () => {
    expect(() => loadConfig({ EXTERNAL_COURSES_CERTIFY: "no-training-key" })).toThrow(/EXTERNAL_COURSES_CERTIFY/);
    expect(() => loadConfig({ EXTERNAL_COURSES_RETRIES: "50" })).toThrow(/EXTERNAL_COURSES_RETRIES/);
    expect(() => loadConfig({ EXTERNAL_COURSES_URL: "not a url" })).toThrow(/EXTERNAL_COURSES_URL/);
  });

  it("reads the further icon origins and asks icons over https only in production", () => {
    const partner = (env: Record<string, string>) =>
      loadConfig({ EXTERNAL_COURSES_URL: "https://partner.example", ...env }).partner;
    expect(partner({})).toMatchObject({ iconOrigins: [], httpsOnly: false });
    expect(
      partner({
        EXTERNAL_COURSES_ICON_ORIGINS: "https://cdn.partner.example, http://127.0.0.1:8080/",
        NODE_ENV: "production",
      }),
    ).toMatchObject({ iconOrigins: ["https://cdn.partner.example", "http://127.0.0.1:8080"], httpsOnly: true });
    for (const bad of ["https://cdn.example/icons", "ftp://cdn.example", "cdn.example"]) {
      expect(() => partner({ EXTERNAL_COURSES_ICON_ORIGINS: bad }), bad).toThrow(/EXTERNAL_COURSES_ICON_ORIGINS/);
    }
  });

  it("refuses a token lifetime the web client cannot refresh in time, naming the setting and the minimum", () => {
    // spec §9: the client's timer ends 20 s before expiry and it refreshes 10 s before that.
    expect(TOKEN_REFRESH_LEAD_SECONDS).toBe(30);
    expect(MIN_TOKEN_LIFETIME_SECONDS).toBe(31);
    expect(() => loadConfig({ TOKEN_LIFETIME_SECONDS: "30" })).toThrow(ConfigError);
    expect(() => loadConfig({ TOKEN_LIFETIME_SECONDS: "30" })).toThrow(
      /TOKEN_LIFETIME_SECONDS: at least 31 seconds: the web client refreshes a token 30 s before it expires/,
    );
    expect(() => loadConfig({ TOKEN_LIFETIME_SECONDS: "5" })).toThrow(/TOKEN_LIFETIME_SECONDS: at least 31/);
    expect(loadConfig({ TOKEN_LIFETIME_SECONDS: "31" }).tokenLifetimeSeconds).toBe(31);
    // The browser tests' main server (e2e/playwright.config.ts) runs with 40.
    expect(loadConfig({ TOKEN_LIFETIME_SECONDS: "40" }).tokenLifetimeSeconds).toBe(40);
    expect(loadConfig({}).tokenLifetimeSeconds).toBe(300);
  });

  it("does not start with such a lifetime: main.ts prints the message and exits before opening any data", () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "cc-config-start-"));
    try {
      const { DATABASE_URL: _db, ...env } = process.env;
      const run = spawnSync(process.execPath, ["--import", "tsx", "src/main.ts"], {
        cwd: path.resolve(import.meta.dirname, ".."),
        env: { ...env, DATA_DIR: dataDir, PORT: "0", TOKEN_LIFETIME_SECONDS: "30" },
        encoding: "utf8",
        timeout: 60_000,
      });
      expect(run.status, run.stderr).toBe(1);
      expect(run.stderr).toContain("Invalid configuration:");
      expect(run.stderr).toContain("TOKEN_LIFETIME_SECONDS: at least 31 seconds");
      expect(fs.readdirSync(dataDir)).toEqual([]);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("configuration", () => {
  it("counts days in Europe/Berlin unless TIME_ZONE names another zone, and serves it to the browser", () => {
    expect(loadConfig({}).timeZone).toBe("Europe/Berlin");
    const config = loadConfig({ TIME_ZONE: "America/New_York" });
    expect(config.timeZone).toBe("America/New_York");
    expect(config.settings["time-zone"]).toBe("America/New_York");
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

  it("starts WORKERS server processes only on PostgreSQL", () => {
    expect(loadConfig({}).workers).toBe(1);
    expect(loadConfig({ DATABASE_URL: "postgres://cc@db.example/carecampus", WORKERS: "4" }).workers).toBe(4);
    expect(() => loadConfig({ WORKERS: "2" })).toThrow(/WORKERS: more than one server process needs DATABASE_URL/);
    expect(() => loadConfig({ DATABASE_URL: "postgres://cc@db.example/carecampus", WORKERS: "0" })).toThrow(/WORKERS/);
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
});

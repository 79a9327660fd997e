import { describe, expect, it } from "vitest";
import { parseSettings, type Settings, SettingsSchema, settingEnvName, settingsToStrings } from "./settings";
import { readSettings, SETTING_DEFAULTS, SETTING_NAMES } from "./settings-core";

describe("runtime settings (spec §9)", () => {
  it("has the defaults of the spec", () => {
    const s = parseSettings({});
    expect(s).toMatchObject({
      "show-external-trainings": false,
      "multi-language": ["de"],
      "session-time-in-minutes": 10,
      "show-user-list-threshold": 40,
      theme: "carely",
      "alternative-callback-url": "",
    });
  });
  it("parses values and round-trips to meta strings", () => {
    const s = parseSettings({ "show-points": "true", "multi-language": "de, en,fr", "session-time-in-minutes": "0.5" });
    expect(s["show-points"]).toBe(true);
    expect(s["multi-language"]).toEqual(["de", "en", "fr"]);
    expect(s["session-time-in-minutes"]).toBe(0.5);
    expect(settingsToStrings(s)["multi-language"]).toBe("de,en,fr");
  });
  it("refuses unknown languages and themes", () => {
    expect(() => parseSettings({ "multi-language": "de,xx" })).toThrow();
    expect(() => parseSettings({ theme: "neon" })).toThrow();
  });
  it("takes the time zone of the one clock, Europe/Berlin unless set, and refuses unknown zones", () => {
    expect(parseSettings({})["time-zone"]).toBe("Europe/Berlin");
    expect(parseSettings({ "time-zone": "" })["time-zone"]).toBe("Europe/Berlin");
    expect(parseSettings({ "time-zone": "America/New_York" })["time-zone"]).toBe("America/New_York");
    expect(() => parseSettings({ "time-zone": "Europe/Atlantis" })).toThrow(/unknown time zone/);
    expect(settingEnvName("time-zone")).toBe("TIME_ZONE");
  });
  it("takes only an absolute http(s) address as the logout's destination", () => {
    expect(
      parseSettings({ "alternative-callback-url": " https://intranet.example.org/pflege " })[
        "alternative-callback-url"
      ],
    ).toBe("https://intranet.example.org/pflege");
    for (const bad of ["javascript:alert(1)", "/portal", "intranet.example.org", "ftp://example.org", "https://"]) {
      expect(() => parseSettings({ "alternative-callback-url": bad }), bad).toThrow(/absolute http/);
    }
  });
  it("shows the question type unless switched off, the content version only when switched on", () => {
    expect(parseSettings({})["show-question-type"]).toBe(true);
    expect(parseSettings({ "show-question-type": "false" })["show-question-type"]).toBe(false);
    expect(parseSettings({})["show-content-version"]).toBe(false);
  });
  it("maps names to environment variables", () => {
    expect(settingEnvName("show-carely-qm-msg")).toBe("SHOW_CARELY_QM_MSG");
  });

  it("reads in the browser, without zod, what the server writes: the same names, defaults and values", () => {
    expect(SETTING_NAMES).toEqual(Object.keys(SettingsSchema.shape));
    expect(readSettings({})).toEqual(parseSettings({}));
    expect({ ...SETTING_DEFAULTS, "multi-language": [...SETTING_DEFAULTS["multi-language"]] }).toEqual(
      parseSettings({}),
    );
    // Each setting away from its default, as the server writes it into the page.
    const changed: Settings = {
      "show-external-trainings": true,
      "expand-topic-progress": true,
      "multi-language": ["fr", "de", "br"],
      "show-points": true,
      "session-time-in-minutes": 0.05,
      "show-user-list-threshold": 0,
      theme: "ocean",
      "show-read-wiki-first": true,
      "show-acquired-at": true,
      "show-carely-qm-msg": true,
      "allow-make-questionnaires-again": true,
      "alternative-callback-url": "https://example.org/back?x=1&y=2",
      "show-content-version": true,
      "show-question-type": false,
      "show-legal-compliance": true,
      "show-salutation": true,
      "time-zone": "America/New_York",
    };
    for (const settings of [changed, parseSettings({}), parseSettings({ "multi-language": "en,es" })]) {
      const written = settingsToStrings(settings);
      expect(parseSettings(written)).toEqual(settings);
      expect(readSettings(written)).toEqual(settings);
    }
    for (const name of SETTING_NAMES) expect(changed[name], name).not.toEqual(SETTING_DEFAULTS[name]);
  });

  it("falls back to a setting's default where the page's value is not one of it", () => {
    const read = readSettings({
      theme: "neon",
      "multi-language": "de,xx",
      "show-points": "maybe",
      "time-zone": "Mars",
    });
    expect(read.theme).toBe("carely");
    expect(read["multi-language"]).toEqual(["de"]);
    expect(read["show-points"]).toBe(false);
    expect(read["time-zone"]).toBe("Europe/Berlin");
    expect(readSettings({ "session-time-in-minutes": "0.5", "multi-language": " de, en " })).toMatchObject({
      "session-time-in-minutes": 0.5,
      "multi-language": ["de", "en"],
    });
  });
});

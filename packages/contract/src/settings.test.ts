import { describe, expect, it } from "vitest";
import { parseSettings, settingEnvName, settingsToStrings } from "./settings";

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
});

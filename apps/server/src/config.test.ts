import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

describe("configuration", () => {
  it("counts days in Europe/Berlin unless TIME_ZONE names another zone, and serves it to the browser", () => {
    expect(loadConfig({}).timeZone).toBe("Europe/Berlin");
    const config = loadConfig({ TIME_ZONE: "America/New_York" });
    expect(config.timeZone).toBe("America/New_York");
    expect(config.settings["time-zone"]).toBe("America/New_York");
  });

  it("refuses an unknown time zone at boot, naming the variable", () => {
    expect(() => loadConfig({ TIME_ZONE: "Europe/Atlantis" })).toThrow(ConfigError);
    expect(() => loadConfig({ TIME_ZONE: "Europe/Atlantis" })).toThrow(
      /TIME_ZONE: unknown time zone "Europe\/Atlantis"/,
    );
  });
});

// @vitest-environment jsdom
import { describe, expect, it } from "vitest";
import { startI18n } from "../i18n";
import { ApiError } from "./call";
import { errorText } from "./client";

describe("errorText", () => {
  it("says that there is no connection when no answer came (status 0), not 'Fehler: 0'", async () => {
    await startI18n("de");
    expect(errorText(new ApiError(0, null))).toBe("Keine Verbindung zum Server");
    expect(errorText(new TypeError("Failed to fetch"))).toBe("Keine Verbindung zum Server");
    expect(errorText(new ApiError(502, null))).toBe("Fehler: 502");
  });
});

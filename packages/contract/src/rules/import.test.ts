import { describe, expect, it } from "vitest";
import { checkImportRows, type ImportRow, importKey, splitNames } from "./import";

const catalogue = {
  facilities: ["Haus Sonnenhof", "Haus Lindenhof"],
  activities: ["Stationäre Langzeitpflege", "Nachtdienst"],
  qualifications: ["Altenpfleger/in"],
};
const row = (extra: Partial<ImportRow> = {}): ImportRow => ({
  surname: "Müller-Weiß",
  name: "Jürgen",
  login: "j.mueller",
  facility: "Haus Sonnenhof",
  activities: [],
  qualifications: [],
  password: "Sicher-123!",
  ...extra,
});

describe("CSV import rules (spec §5)", () => {
  it("matches names case-insensitively and ignoring surrounding space", () => {
    expect(importKey("  HAUS Sonnenhof ")).toBe("haus sonnenhof");
    const rows = [
      row({ facility: "haus sonnenhof", activities: ["NACHTDIENST"], qualifications: [" altenpfleger/in"] }),
    ];
    expect(checkImportRows(rows, catalogue)).toEqual([]);
  });

  it("names every problem of every row", () => {
    const rows = [
      row(),
      row({ login: "J.MUELLER", facility: "Haus Nirgendwo", activities: ["Raumfahrt"], password: "kurz" }),
      row({ login: "mit leer", name: " ", password: "", qualifications: ["Astronaut"] }),
    ];
    expect(checkImportRows(rows, catalogue)).toEqual([
      { row: 1, field: "login", code: "duplicateInFile", value: "J.MUELLER" },
      { row: 1, field: "facility", code: "unknownFacility", value: "Haus Nirgendwo" },
      { row: 1, field: "activities", code: "unknownActivity", value: "Raumfahrt" },
      { row: 1, field: "password", code: "passwordRule" },
      { row: 2, field: "name", code: "required" },
      { row: 2, field: "login", code: "spaces", value: "mit leer" },
      { row: 2, field: "qualifications", code: "unknownQualification", value: "Astronaut" },
      { row: 2, field: "password", code: "passwordRequired" },
    ]);
  });

  it("lets existing users keep their password with an empty cell", () => {
    expect(checkImportRows([row({ password: "" })], catalogue, new Set(["j.mueller"]))).toEqual([]);
  });

  it("splits semicolon lists and drops empty names", () => {
    expect(splitNames(" Nachtdienst ;; Stationäre Langzeitpflege; ")).toEqual([
      "Nachtdienst",
      "Stationäre Langzeitpflege",
    ]);
  });
});

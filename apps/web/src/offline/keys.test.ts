import { describe, expect, it } from "vitest";
import { certificateOf, certificatePdfKey, certificatesOf, withoutToken } from "./keys";

const at = (path: string) => new URL(path, "https://campus.example");

describe("the device-kept certificates' keys", () => {
  it("keeps a certificate's PDF under its address without the token", () => {
    const ref = certificateOf(at("/api/progress/export/certificate?token=abc.def&id=42"));
    expect(ref).toEqual({ id: 42, partner: false });
    expect(certificatePdfKey(ref ?? { id: 0, partner: false })).toBe("/api/progress/export/certificate?id=42");
    const partner = certificateOf(at("/api/progress/export/certificate?id=7&source=partner&token=x"));
    expect(partner).toEqual({ id: 7, partner: true });
    expect(certificatePdfKey(partner ?? { id: 0, partner: false })).toBe(
      "/api/progress/export/certificate?id=7&source=partner",
    );
  });

  it("names no certificate for another address, a missing or odd id, or an unknown source", () => {
    for (const path of [
      "/api/progress/export/xlsx?id=1",
      "/api/progress/export/certificate",
      "/api/progress/export/certificate?id=0",
      "/api/progress/export/certificate?id=1.5",
      "/api/progress/export/certificate?id=abc",
      "/api/progress/export/certificate?id=3&source=other",
    ]) {
      expect(certificateOf(at(path)), path).toBeNull();
    }
  });

  it("lists the copy's certificates: current, earlier and partner courses'", () => {
    const refs = certificatesOf({
      training_progress: [
        { certificate: { id: 1 }, earlier_certificates: [{ id: 2 }] },
        { certificate: null, earlier_certificates: [{ id: 3 }] },
      ],
      partner_certificates: [{ id: 1 }],
    });
    expect(refs).toEqual([
      { id: 1, partner: false },
      { id: 2, partner: false },
      { id: 3, partner: false },
      { id: 1, partner: true },
    ]);
  });

  it("drops only the token from an icon's address", () => {
    expect(withoutToken("https://campus.example/api/static/icon/icon_x.svg?token=abc")).toBe(
      "https://campus.example/api/static/icon/icon_x.svg",
    );
  });
});

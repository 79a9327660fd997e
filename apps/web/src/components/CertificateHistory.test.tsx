// @vitest-environment jsdom
import { formatDate } from "@carecampus/contract";
import { screen, within } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { settings } from "../app/settings";
import i18n from "../i18n";
import { cleanUpScreen, renderScreen, setUpComponentTests, signInAs } from "../test/render";
import { CertificateHistory } from "./CertificateHistory";

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

const EARLIER = [
  {
    id: 41,
    acquired_at: "2025-03-10T09:00:00.000Z",
    expires_at: "2026-03-10T09:00:00.000Z",
    active_working_cert: false,
  },
  {
    id: 17,
    acquired_at: "2024-03-10T09:00:00.000Z",
    expires_at: "2025-03-10T09:00:00.000Z",
    active_working_cert: false,
  },
];

describe("CertificateHistory", () => {
  it("shows one line per earlier issue with its dates and a download of its PDF, in the given order", () => {
    signInAs(["employee"]);
    renderScreen(<CertificateHistory certificates={EARLIER} />);
    const lines = screen.getAllByTestId("earlier-certificate");
    expect(lines).toHaveLength(2);
    const zone = settings["time-zone"];
    EARLIER.forEach((c, i) => {
      const text = i18n.t("certificateHistory.line", {
        acquired: formatDate(c.acquired_at, zone),
        expires: formatDate(c.expires_at, zone),
      });
      expect(lines[i]?.textContent).toContain(text);
      const link = within(lines[i] as HTMLElement).getByRole("link");
      // The same address as the current certificate's link: the endpoint, its id and the session's token.
      const href = new URL(link.getAttribute("href") ?? "", "http://localhost");
      expect(href.pathname).toBe("/api/progress/export/certificate");
      expect(href.searchParams.get("id")).toBe(String(c.id));
      expect(href.searchParams.get("token")).toBeTruthy();
      expect(link.getAttribute("target")).toBe("_blank");
    });
    expect(lines[0]?.textContent).toContain("Earlier: acquired");
  });

  it("renders nothing without earlier certificates", () => {
    renderScreen(<CertificateHistory certificates={[]} />);
    expect(screen.queryByTestId("certificate-history")).toBeNull();
  });
});

// @vitest-environment jsdom
import { can, type HelpRequestDetail, ROLES, type Role } from "@carecampus/contract";
import { cleanup, screen } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { sessionStore } from "../../session/store";
import { renderScreen, setUpComponentTests, signInAs } from "../../test/render";
import HelpRequestPage from "./HelpRequestPage";

const DETAIL: HelpRequestDetail = {
  id: 7,
  question_id: 7,
  count: 1,
  color: "yellow",
  question_text: "Wie lange Hände desinfizieren?",
  type: "single",
  icon: "hygiene",
  topic: { id: 1, name: "Hygiene" },
  training: { id: 2, name: "Händehygiene" },
  questionnaire: { id: 3, name: "Grundlagen" },
  editable: false,
  answers: [
    { id: 1, text: "5 s", value: false },
    { id: 2, text: "30 s", value: true },
  ],
  explanation: "<p>30 Sekunden.</p>",
  hint: null,
  media: null,
  learners: [{ id: 9, name: "Emma", surname: "Lernend", facility: null, asked_at: "2026-11-20T09:00:00.000Z" }],
  replies: [],
  needs_fix: false,
};

// The request as the server would send it.
vi.mock("./queries", async (importOriginal) => ({
  ...(await importOriginal<typeof import("./queries")>()),
  useHelpRequest: () => ({ data: DETAIL, isPending: false }),
}));

beforeAll(setUpComponentTests);
afterEach(() => {
  cleanup();
  sessionStore.clear();
});

describe("help request page", () => {
  const cases: Role[][] = ROLES.map((r) => [r]);

  it.each(cases.map((roles) => [roles.join("+"), roles] as const))(
    "offers %s 'content needs fixing' as the access table allows",
    (_, roles) => {
      signInAs(roles);
      renderScreen(<HelpRequestPage />, "/helprequests/7");
      expect(screen.getByText(DETAIL.question_text)).toBeTruthy();
      // The switch by its test id (the browser tests' too): its label is a sibling Mantine ties by id.
      const offered = screen.queryAllByTestId("content-fix").length > 0;
      if (offered) expect(screen.getByText(i18n.t("helpRequests.fixes.switch"))).toBeTruthy();
      expect(offered).toBe(can(roles, "help.flagContent"));
    },
  );
});

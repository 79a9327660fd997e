// @vitest-environment jsdom
import { api, can, ErrorCode, type HelpRequestDetail, ROLES, type Role } from "@carecampus/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { Route, Routes } from "react-router";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { Toasts } from "../../app/Toasts";
import i18n from "../../i18n";
import { ApiFailure, held, stubApi } from "../../test/api";
import { cleanUpScreen, fieldLabelled, renderScreen, setUpComponentTests, signInAs } from "../../test/render";
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
afterEach(cleanUpScreen);

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

describe("help request reply", () => {
  const answerBox = () => fieldLabelled("helpRequests.reply.label");
  const send = () => screen.getByRole("button", { name: i18n.t("helpRequests.reply.send") });
  const closeOnly = () => screen.getByRole("button", { name: i18n.t("helpRequests.reply.handleOnly") });

  function openAsSupervisor() {
    signInAs(["supervisor"]);
    renderScreen(
      <>
        <Toasts />
        <Routes>
          <Route path="/helprequests/:id" element={<HelpRequestPage />} />
          <Route path="/helprequests" element={<p>help requests list</p>} />
        </Routes>
      </>,
      "/helprequests/7",
    );
  }

  it("sends the answer once, with both buttons disabled while it goes, then returns to the list", async () => {
    const sending = held<{ handled: number }>();
    const requests = stubApi([{ route: api.helpReply, params: { id: 7 }, answer: () => sending.answer }]);
    openAsSupervisor();
    expect(send().hasAttribute("disabled")).toBe(true);
    fireEvent.change(answerBox(), { target: { value: "  30 Sekunden, siehe Aushang.  " } });
    expect(send().hasAttribute("disabled")).toBe(false);

    fireEvent.click(send());
    await waitFor(() => expect(send().getAttribute("data-loading")).toBe("true"));
    expect(closeOnly().hasAttribute("disabled")).toBe(true);
    expect(requests).toEqual([
      { method: "POST", url: "/api/help/7/reply", body: { text: "30 Sekunden, siehe Aushang." } },
    ]);

    sending.release({ handled: 1 });
    expect(await screen.findByText("help requests list")).toBeTruthy();
    expect(await screen.findByText(i18n.t("success.helpRequestRemoved"))).toBeTruthy();
  });

  it("shows a refusal and keeps the answer for another try", async () => {
    stubApi([
      {
        route: api.helpReply,
        params: { id: 7 },
        answer: () => {
          throw new ApiFailure(ErrorCode.helpRequestNotFound);
        },
      },
    ]);
    openAsSupervisor();
    fireEvent.change(answerBox(), { target: { value: "30 Sekunden" } });
    fireEvent.click(send());
    expect(await screen.findByText(i18n.t(`errors.${ErrorCode.helpRequestNotFound}`))).toBeTruthy();
    await waitFor(() => expect(send().hasAttribute("disabled")).toBe(false));
    expect(answerBox().value).toBe("30 Sekunden");
    expect(screen.queryByText("help requests list")).toBeNull();
  });
});

// @vitest-environment jsdom
import type { AuthoringQuestionInput } from "@carecampus/contract";
import { fireEvent, screen, waitFor } from "@testing-library/react";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import i18n from "../../i18n";
import { held } from "../../test/api";
import { cleanUpScreen, fieldLabelled, renderScreen, setUpComponentTests, signInAs } from "../../test/render";
import { type QuestionDraft, QuestionForm } from "./QuestionForm";

// The rich-text explanation (TipTap) as a plain field: these tests are about the form around it.
vi.mock("./ExplanationEditor", () => ({
  default: ({ value, onChange, labelId }: { value: string; onChange: (v: string) => void; labelId: string }) => (
    <textarea aria-labelledby={labelId} value={value} onChange={(e) => onChange(e.currentTarget.value)} />
  ),
}));

/** A question begun: no text, no right answer, the second answer row left empty. */
const BEGUN: QuestionDraft = {
  type: "single",
  text: "",
  answers: [
    { key: 1, text: "5 Sekunden", correct: false },
    { key: 2, text: "", correct: false },
    { key: 3, text: "60 Sekunden", correct: false },
  ],
  explanation: "<p>30 Sekunden.</p>",
  hint: "",
  media: null,
};

beforeAll(setUpComponentTests);
afterEach(cleanUpScreen);

const problem = (code: string) => i18n.t(`authoring.problems.${code}`);
const save = () => screen.getByRole("button", { name: i18n.t("authoring.saveQuestion") });

function openForm(onSave: (input: AuthoringQuestionInput, next: boolean) => Promise<void>) {
  signInAs(["contentmanager"]);
  renderScreen(<QuestionForm initial={BEGUN} answered={false} onSave={onSave} onCancel={() => {}} />);
}

describe("question form", () => {
  it("checks the contract's question rules on save, focuses the first problem, then follows every change", async () => {
    const onSave = vi.fn(async () => {});
    openForm(onSave);
    const question = fieldLabelled("authoring.questionText");
    // Nothing is said before saving is tried.
    expect(screen.queryByText(problem("textRequired"))).toBeNull();

    fireEvent.click(save());
    expect(await screen.findByText(problem("textRequired"))).toBeTruthy();
    expect(question.getAttribute("aria-invalid")).toBe("true");
    expect(screen.getByText(problem("singleNeedsOneCorrect")).getAttribute("role")).toBe("alert");
    // The empty answer row is no answer and no problem: it is left out.
    expect(screen.queryByText(problem("answerTextRequired"))).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(question));
    expect(onSave).not.toHaveBeenCalled();

    fireEvent.change(question, { target: { value: "Wie lange Hände desinfizieren?" } });
    expect(screen.queryByText(problem("textRequired"))).toBeNull();
    fireEvent.click(screen.getByRole("radio", { name: i18n.t("authoring.isRight", { n: 3 }) }));
    expect(screen.queryByText(problem("singleNeedsOneCorrect"))).toBeNull();
    // A fixed rule broken again is said at once.
    fireEvent.change(question, { target: { value: " " } });
    expect(screen.getByText(problem("textRequired"))).toBeTruthy();
  });

  it("saves what the rules accept, pending until the save is done", async () => {
    const saving = held<void>();
    const onSave = vi.fn(() => saving.answer);
    openForm(onSave);
    fireEvent.change(fieldLabelled("authoring.questionText"), { target: { value: " Wie lange? " } });
    fireEvent.change(screen.getByRole("textbox", { name: i18n.t("authoring.answerN", { n: 2 }) }), {
      target: { value: "30 Sekunden" },
    });
    fireEvent.click(screen.getByRole("radio", { name: i18n.t("authoring.isRight", { n: 2 }) }));

    fireEvent.click(save());
    await waitFor(() => expect(save().getAttribute("data-loading")).toBe("true"));
    expect(onSave).toHaveBeenCalledTimes(1);
    expect(onSave).toHaveBeenCalledWith(
      {
        type: "single",
        text: "Wie lange?",
        answers: [
          { text: "5 Sekunden", correct: false },
          { text: "30 Sekunden", correct: true },
          { text: "60 Sekunden", correct: false },
        ],
        explanation: "<p>30 Sekunden.</p>",
        hint: null,
        media: null,
      },
      false,
    );
    saving.release();
    await waitFor(() => expect(save().getAttribute("data-loading")).toBeNull());
  });

  it("leaves empty answer rows out, marks what is required, and saves and opens the next question", async () => {
    const onSave = vi.fn(async () => {});
    openForm(onSave);
    // The answers and the explanation are required, as the question's text is.
    expect(screen.getByRole("heading", { name: new RegExp(`^${i18n.t("authoring.answers")}\\s*\\*$`) })).toBeTruthy();
    expect(screen.getByText(i18n.t("authoring.emptyIgnored"), { exact: false })).toBeTruthy();
    fireEvent.change(fieldLabelled("authoring.questionText"), { target: { value: "Wie lange?" } });
    fireEvent.click(screen.getByRole("radio", { name: i18n.t("authoring.isRight", { n: 1 }) }));
    fireEvent.click(screen.getByRole("button", { name: i18n.t("authoring.saveAndNext") }));
    await waitFor(() => expect(onSave).toHaveBeenCalledTimes(1));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({
        answers: [
          { text: "5 Sekunden", correct: true },
          { text: "60 Sekunden", correct: false },
        ],
      }),
      true,
    );
  });
});

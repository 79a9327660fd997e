import { describe, expect, it } from "vitest";
import { mediaTypeOfFile, normalizeLegalBasis, questionProblems, uploadProblem } from "./content";

const valid = {
  type: "single",
  text: "Wie lange?",
  answers: [{ text: "30 s", correct: true }, { text: "5 s" }],
  explanation: "<p>30 s.</p>",
};
const codes = (q: Parameters<typeof questionProblems>[0]) => questionProblems(q).map((p) => p.code);

describe("the rules of valid content", () => {
  it("accepts a valid question", () => {
    expect(questionProblems(valid)).toEqual([]);
    expect(
      codes({
        ...valid,
        type: "multiple",
        answers: [
          { text: "a", correct: true },
          { text: "b", correct: true },
        ],
      }),
    ).toEqual([]);
  });

  it.each([
    ["an unknown type", { ...valid, type: "essay" }, "type"],
    ["an empty text", { ...valid, text: "  " }, "textRequired"],
    ["a long text", { ...valid, text: "x".repeat(2001) }, "textTooLong"],
    ["one answer", { ...valid, answers: [{ text: "a", correct: true }] }, "answersTooFew"],
    [
      "seven answers",
      { ...valid, answers: Array.from({ length: 7 }, (_, i) => ({ text: `a${i}`, correct: i === 0 })) },
      "answersTooMany",
    ],
    ["an empty answer", { ...valid, answers: [{ text: "a", correct: true }, { text: " " }] }, "answerTextRequired"],
    [
      "the same answer twice",
      { ...valid, answers: [{ text: "Ja", correct: true }, { text: "ja" }] },
      "answerDuplicate",
    ],
    [
      "single choice, two right",
      {
        ...valid,
        answers: [
          { text: "a", correct: true },
          { text: "b", correct: true },
        ],
      },
      "singleNeedsOneCorrect",
    ],
    ["single choice, none right", { ...valid, answers: [{ text: "a" }, { text: "b" }] }, "singleNeedsOneCorrect"],
    [
      "multiple choice, none right",
      { ...valid, type: "multiple", answers: [{ text: "a" }, { text: "b" }] },
      "multipleNeedsCorrect",
    ],
    ["no explanation", { ...valid, explanation: "" }, "explanationRequired"],
    ["a long hint", { ...valid, hint: "h".repeat(1001) }, "hintTooLong"],
  ])("refuses %s", (_name, q, code) => {
    expect(codes(q)).toContain(code);
  });

  it("knows the media types and upload limits", () => {
    expect(mediaTypeOfFile("Plan.JPG")).toBe("image/jpeg");
    expect(mediaTypeOfFile("film.mp4")).toBe("video/mp4");
    expect(mediaTypeOfFile("doc.pdf")).toBeUndefined();
    expect(uploadProblem("image/png", 1000)).toBeUndefined();
    expect(uploadProblem("image/svg+xml", 1000)).toBe("type");
    expect(uploadProblem("application/pdf", 1000)).toBe("type");
    expect(uploadProblem("image/png", 6 * 1024 * 1024)).toBe("size");
    expect(uploadProblem("video/mp4", 0)).toBe("empty");
  });

  it("keeps a legal basis as one line, and none when blank", () => {
    expect(normalizeLegalBasis("  §§ 42, 43 IfSG,\n   § 4 LMHV\t")).toBe("§§ 42, 43 IfSG, § 4 LMHV");
    expect(normalizeLegalBasis("Art. 32 Abs. 4 DSGVO")).toBe("Art. 32 Abs. 4 DSGVO");
    for (const blank of ["", " \n ", null, undefined]) expect(normalizeLegalBasis(blank)).toBeNull();
  });
});

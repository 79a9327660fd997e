import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type ParsedQuestion, parseQuestionBank, QuestionBankError, type QuestionBankResult } from "./index";

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");
const BANK = fixture("hygiene-brandschutz.moodle.xml");

/** 1-based line of the first line of `text` that contains `needle`. */
function lineOf(text: string, needle: string): number {
  const index = text.split("\n").findIndex((l) => l.includes(needle));
  if (index === -1) throw new Error(`not in fixture: ${needle}`);
  return index + 1;
}

function byName(result: QuestionBankResult, name: string): ParsedQuestion {
  const q = result.questions.find((x) => x.sourceName === name);
  if (!q) throw new Error(`no question ${name}`);
  return q;
}

function problemsOf(result: QuestionBankResult, name: string): string[] {
  return result.problems.filter((p) => p.name === name).map((p) => p.code);
}

/** A Moodle export around the given <question> elements. */
function quiz(questions: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n${questions}\n</quiz>\n`;
}

function multichoice(opts: { name?: string; single?: string; text?: string; answers: string; extra?: string }): string {
  return `<question type="multichoice">
  <name><text>${opts.name ?? "Frage"}</text></name>
  <questiontext format="html"><text><![CDATA[${opts.text ?? "<p>Welche Antwort stimmt?</p>"}]]></text></questiontext>
  ${opts.single === undefined ? "" : `<single>${opts.single}</single>`}
  ${opts.answers}
  ${opts.extra ?? ""}
</question>`;
}

const answer = (fraction: string | number, text: string, feedback = "") =>
  `<answer fraction="${fraction}" format="html"><text><![CDATA[${text}]]></text><feedback format="html"><text><![CDATA[${feedback}]]></text></feedback></answer>`;

describe("Moodle XML: the fixture export (categories, choice types, unsupported types)", () => {
  const result = parseQuestionBank("moodle-xml", BANK);

  it("imports the choice questions and names every other question with its type and place", () => {
    expect(result.questions.map((q) => q.sourceName)).toEqual([
      "Einwirkzeit Händedesinfektion",
      "Indikationen der Händedesinfektion",
      "Schmuck an den Händen",
      "Flächendesinfektion Bild",
      "Brand entdeckt – Reihenfolge",
      "Brandschutztüren",
    ]);
    expect(result.unsupported).toEqual([
      {
        name: "Hygieneplan beschreiben",
        sourceType: "essay",
        reason: "unsupported-type",
        position: { number: 4, line: lineOf(BANK, '<question type="essay">') },
        detail: null,
      },
      {
        name: "Farbcodes Reinigungstücher",
        sourceType: "matching",
        reason: "unsupported-type",
        position: { number: 6, line: lineOf(BANK, '<question type="matching">') },
        detail: null,
      },
      {
        name: "Notrufnummer Feuerwehr",
        sourceType: "shortanswer",
        reason: "unsupported-type",
        position: { number: 8, line: lineOf(BANK, '<question type="shortanswer">') },
        detail: null,
      },
      {
        name: "Abstand Feuerlöscher",
        sourceType: "numerical",
        reason: "unsupported-type",
        position: { number: 9, line: lineOf(BANK, '<question type="numerical">') },
        detail: null,
      },
      {
        name: "Lückentext Feuerlöscher",
        sourceType: "multianswer",
        reason: "unsupported-type",
        position: { number: 10, line: lineOf(BANK, '<question type="multianswer">') },
        detail: null,
      },
      {
        name: "Fluchtweg Begriffe",
        sourceType: "ddwtos",
        reason: "unsupported-type",
        position: { number: 11, line: lineOf(BANK, '<question type="ddwtos">') },
        detail: null,
      },
      {
        name: "Hinweis Brandschutzordnung",
        sourceType: "description",
        reason: "not-a-question",
        position: { number: 12, line: lineOf(BANK, '<question type="description">') },
        detail: null,
      },
      {
        name: "Feuerlöscher ohne Lösung",
        sourceType: "multichoice",
        reason: "no-right-answer",
        position: { number: 14, line: lineOf(BANK, "<text>Feuerlöscher ohne Lösung</text>") - 2 },
        detail: null,
      },
    ]);
  });

  it("reads a single-choice question: plain text from HTML, general feedback as explanation, hint, category", () => {
    expect(result.questions[0]).toEqual({
      sourceName: "Einwirkzeit Händedesinfektion",
      kind: "single",
      text: "Wie lange muss das Händedesinfektionsmittel mindestens einwirken?",
      answers: [
        { text: "10 Sekunden", right: false },
        { text: "30 Sekunden", right: true },
        { text: "2 Minuten", right: false },
      ],
      explanation:
        "<p>Die Hände müssen während der gesamten <strong>Einwirkzeit von 30 Sekunden</strong> feucht bleiben.</p>",
      hint: "Schauen Sie auf das Etikett des Desinfektionsmittels.",
      category: "Hygiene / Händehygiene",
      image: null,
      position: { number: 1, line: lineOf(BANK, "<!-- question: 101") + 1 },
    });
    // Moodle's combined feedback ("Ihre Antwort ist richtig.") is not carried over.
    expect(JSON.stringify(result.questions)).not.toContain("Ihre Antwort ist");
    expect(problemsOf(result, "Einwirkzeit Händedesinfektion")).toEqual([]);
  });

  it("reads a multiple-choice question: positive fractions right, negative wrong; escaped HTML and character references decoded", () => {
    const q = byName(result, "Indikationen der Händedesinfektion");
    expect(q.kind).toBe("multiple");
    expect(q.text).toBe("Wann ist eine hygienische Händedesinfektion erforderlich? (Mehrere Antworten sind richtig.)");
    expect(q.answers).toEqual([
      { text: "Vor dem Patientenkontakt", right: true },
      { text: "Nach Kontakt mit potenziell infektiösem Material", right: true },
      { text: "Vor aseptischen Tätigkeiten", right: true },
      { text: "Nur wenn die Hände sichtbar verschmutzt sind", right: false },
    ]);
    // The general feedback, then the feedback of the one answer that has some, named by its text.
    expect(q.explanation).toBe(
      "<p>Die &bdquo;5 Momente&ldquo; der WHO.</p>\n" +
        "<ul><li><em>Nur wenn die Hände sichtbar verschmutzt sind</em>: <p>Sichtbar verschmutzte Hände werden <b>gewaschen</b>.</p></li></ul>",
    );
    expect(problemsOf(result, q.sourceName ?? "")).toEqual(["answer-feedback-merged", "formatting-removed"]);
  });

  it("reads true/false as single choice with the source's labels, and says so", () => {
    const q = byName(result, "Schmuck an den Händen");
    expect(q.kind).toBe("single");
    expect(q.answers).toEqual([
      { text: "true", right: false },
      { text: "false", right: true },
    ]);
    expect(q.explanation).toContain("Laut TRBA 250");
    expect(q.explanation).toContain("<li><em>true</em>: <p>Auch glatte Ringe sind nicht erlaubt.</p></li>");
    expect(problemsOf(result, "Schmuck an den Händen")).toContain("true-false-labels");
  });

  it("reads Moodle's auto format: line breaks kept in the text, the feedback's XML escapes decoded", () => {
    const q = byName(result, "Brandschutztüren");
    expect(q.text).toBe("Brandschutztüren dürfen mit einem Keil offen gehalten werden.\nBegründen Sie für sich kurz.");
    expect(q.explanation).toBe("Nein: nur mit zugelassenen Feststellanlagen, die bei Rauch auslösen & schließen.");
    expect(q.answers.map((a) => a.right)).toEqual([false, true]);
  });

  it("takes the category from the category entry before, with Moodle's // escape for a slash", () => {
    expect(result.questions.map((q) => q.category)).toEqual([
      "Hygiene / Händehygiene",
      "Hygiene / Händehygiene",
      "Hygiene / Händehygiene",
      "Hygiene / Flächen/Geräte",
      "Brandschutz",
      "Brandschutz",
    ]);
  });

  it("takes the picture the question text shows as the question's image, and a partial-credit answer of a single-choice question as wrong", () => {
    const q = byName(result, "Flächendesinfektion Bild");
    expect(q.text).toBe("Welches Symbol auf dem Etikett zeigt ein VAH-gelistetes Mittel?");
    expect(q.answers).toEqual([
      { text: "Das VAH-Zertifikat", right: true },
      { text: "Das CE-Zeichen", right: false },
      { text: "Der Blaue Engel", right: false },
    ]);
    // The embedded file's bytes, named as the @@PLUGINFILE@@ reference names it (URL-decoded).
    expect(q.image).toMatchObject({ name: "VAH Siegel.png", shownIn: "text" });
    expect(
      Buffer.from(q.image?.base64 ?? "", "base64")
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
    const problems = result.problems.filter((p) => p.name === "Flächendesinfektion Bild");
    expect(problems.map((p) => p.code)).not.toContain("media-not-imported");
    expect(problems.map((p) => p.code)).toContain("weighted-partial-credit");
  });

  it("joins several hints, and reports formatting that plain text loses", () => {
    const q = byName(result, "Brand entdeckt – Reihenfolge");
    expect(q.hint).toBe("Denken Sie an die Alarmordnung im Flur.\nNiemand kann allein alles schaffen.");
    expect(q.text).toBe("Sie entdecken einen Brand im Aufenthaltsraum. Was tun Sie zuerst?");
    expect(problemsOf(result, "Brand entdeckt – Reihenfolge")).toEqual(["formatting-removed"]);
  });

  it("reads the same file with Windows line ends and a byte-order mark alike", () => {
    const windows = parseQuestionBank("moodle-xml", `\uFEFF${BANK.replace(/\n/g, "\r\n")}`);
    expect(windows).toEqual(result);
  });
});

describe("Moodle XML: mapping decisions", () => {
  const one = (xml: string) => parseQuestionBank("moodle-xml", quiz(xml));

  it("treats a missing <single> as single choice (Moodle's default) and '1'/'0' as true/false", () => {
    const answers = answer(100, "Ja") + answer(0, "Nein");
    expect(one(multichoice({ answers })).questions[0]?.kind).toBe("single");
    expect(one(multichoice({ single: "0", answers })).questions[0]?.kind).toBe("multiple");
    expect(one(multichoice({ single: "1", answers })).questions[0]?.kind).toBe("single");
  });

  it("counts Moodle's seven-decimal fractions as full marks", () => {
    const r = one(multichoice({ single: "true", answers: answer("100.0000000", "Ja") + answer("0.0000000", "Nein") }));
    expect(r.questions[0]?.answers).toEqual([
      { text: "Ja", right: true },
      { text: "Nein", right: false },
    ]);
  });

  it("refuses a single-choice question in which two answers give full marks", () => {
    const r = one(multichoice({ single: "true", answers: answer(100, "112") + answer(100, "Eins-eins-zwei") }));
    expect(r.questions).toEqual([]);
    expect(r.unsupported[0]?.reason).toBe("several-right-answers");
  });

  it("refuses a multiple-choice question without any positive fraction", () => {
    const r = one(multichoice({ single: "false", answers: answer(0, "A") + answer(-50, "B") }));
    expect(r.unsupported[0]).toMatchObject({ reason: "no-right-answer", sourceType: "multichoice", name: "Frage" });
  });

  it("refuses a choice question without answers, and drops empty answer slots", () => {
    expect(one(multichoice({ answers: "" })).unsupported[0]?.reason).toBe("no-answers");
    const r = one(multichoice({ answers: answer(100, "Ja") + answer(0, "Nein") + answer(0, "  ") }));
    expect(r.questions[0]?.answers).toHaveLength(2);
  });

  it("refuses a question whose text or an answer is only an image", () => {
    const image = '<p><img src="@@PLUGINFILE@@/feuer.png" alt=""></p>';
    expect(one(multichoice({ text: image, answers: answer(100, "A") + answer(0, "B") })).unsupported[0]?.reason).toBe(
      "no-text",
    );
    expect(one(multichoice({ answers: answer(100, image) + answer(0, "B") })).unsupported[0]?.reason).toBe(
      "empty-answer",
    );
  });

  it("names a question without a name by its first words", () => {
    const r = one(
      `<question type="essay"><questiontext format="html"><text><![CDATA[<p>Erklären Sie bitte ausführlich, warum Brandschutztüren im Alltag niemals verkeilt werden dürfen.</p>]]></text></questiontext></question>`,
    );
    expect(r.unsupported[0]?.name).toBe("Erklären Sie bitte ausführlich, warum Brandschutztüren im…");
  });

  it("reads the all-or-nothing multiple choice plugin (multichoiceset) as multiple choice", () => {
    const r = one(
      `<question type="multichoiceset"><name><text>Brandklassen</text></name><questiontext format="html"><text>Welche Brandklassen gibt es?</text></questiontext>${answer(50, "A")}${answer(50, "B")}${answer(0, "G")}</question>`,
    );
    expect(r.questions[0]).toMatchObject({
      kind: "multiple",
      answers: [{ right: true }, { right: true }, { right: false }],
    });
  });

  it("names a question type it does not know as written, and one without a type as unknown", () => {
    const r = one(
      `<question type="ordering"><name><text>Reihenfolge</text></name></question><question><name><text>Ohne Typ</text></name></question>`,
    );
    expect(r.unsupported.map((u) => [u.sourceType, u.reason])).toEqual([
      ["ordering", "unsupported-type"],
      ["unknown", "unsupported-type"],
    ]);
  });

  it("turns plain-text and Markdown feedback into HTML, escaping what looks like markup", () => {
    const plain = one(
      multichoice({
        answers: answer(100, "Ja") + answer(0, "Nein"),
        extra:
          '<generalfeedback format="plain_text"><text>Unter 5 °C &lt;b&gt;nicht&lt;/b&gt; lagern.\nSiehe Plan.</text></generalfeedback>',
      }),
    );
    expect(plain.questions[0]?.explanation).toBe("Unter 5 °C &#60;b&#62;nicht&#60;/b&#62; lagern.<br>Siehe Plan.");
    const markdown = one(
      multichoice({
        answers: answer(100, "Ja") + answer(0, "Nein"),
        extra: '<generalfeedback format="markdown"><text>Immer **zuerst** melden.</text></generalfeedback>',
      }),
    );
    expect(markdown.questions[0]?.explanation).toBe("<p>Immer <strong>zuerst</strong> melden.</p>");
  });

  it("keeps CDATA as it is (a DOCTYPE written inside CDATA is text, not a declaration)", () => {
    const r = one(
      multichoice({
        text: "<p>Was bedeutet &lt;!DOCTYPE&gt; in <!DOCTYPE html>?</p>",
        answers: answer(100, "A") + answer(0, "B"),
      }),
    );
    expect(r.questions[0]?.text).toBe("Was bedeutet <!DOCTYPE> in ?");
  });

  it("reports images in the feedback and data: URLs too", () => {
    const r = one(
      multichoice({
        answers: answer(100, "Ja", '<img src="data:image/png;base64,AAAA">') + answer(0, "Nein"),
        extra:
          '<generalfeedback format="html"><text><![CDATA[<p>Siehe <img src="https://example.org/plan.png"></p>]]></text></generalfeedback>',
      }),
    );
    expect(r.problems.find((p) => p.code === "media-not-imported")?.detail).toBe("data:");
    // Nothing is fetched from elsewhere: an image by address is named with that reason.
    expect(r.problems.find((p) => p.code === "remote-media-not-fetched")?.detail).toBe("https://example.org/plan.png");
    expect(r.questions[0]?.image).toBeNull();
  });

  it("takes a picture the feedback shows when the text shows none; a second picture and answers' pictures are named as not imported", () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString("base64");
    const file = (name: string) => `<file name="${name}" path="/" encoding="base64">${png}</file>`;
    const r = one(
      multichoice({
        text: `<p>Was ist richtig?</p>`,
        answers: answer(100, "Ja") + answer(0, "Nein"),
        extra: `<generalfeedback format="html"><text><![CDATA[<p>So <img src="@@PLUGINFILE@@/a%20b.png"> und <img src="@@PLUGINFILE@@/c.png"></p>]]></text>${file("a b.png")}${file("c.png")}</generalfeedback>`,
      }),
    );
    expect(r.questions[0]?.image).toEqual({ name: "a b.png", base64: png, shownIn: "explanation" });
    expect(r.problems.find((p) => p.code === "media-not-imported")?.detail).toBe("c.png");
  });

  it("accepts an empty quiz as nothing to import", () => {
    expect(parseQuestionBank("moodle-xml", "<quiz></quiz>")).toEqual({ questions: [], unsupported: [], problems: [] });
  });

  it("throws only QuestionBankError for a file that is not a Moodle export", () => {
    expect(() => parseQuestionBank("moodle-xml", "<questestinterop><item/></questestinterop>")).toThrow(
      expect.objectContaining({ code: "not-moodle-xml" }),
    );
    expect(() => parseQuestionBank("moodle-xml", fixture("hygiene-brandschutz.gift.txt"))).toThrow(QuestionBankError);
  });
});

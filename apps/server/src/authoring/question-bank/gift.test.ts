import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { escapeLoneColons } from "./gift";
import { type ParsedQuestion, parseQuestionBank, type QuestionBankResult } from "./index";

const BANK = fs.readFileSync(path.join(import.meta.dirname, "fixtures", "hygiene-brandschutz.gift.txt"), "utf8");

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

const gift = (text: string) => parseQuestionBank("gift", text);

describe("GIFT: the fixture file (comments, categories, titles, escapes, feedback)", () => {
  const result = gift(BANK);

  it("imports the choice questions and names the others with type, number and line", () => {
    expect(result.questions.map((q) => [q.sourceName, q.position])).toEqual([
      ["Einwirkzeit", { number: 1, line: lineOf(BANK, "::Einwirkzeit::") }],
      ["Indikationen der Händedesinfektion", { number: 2, line: lineOf(BANK, "::Indikationen") }],
      ["Schmuck", { number: 3, line: lineOf(BANK, "::Schmuck::") }],
      ["Mischverhältnis", { number: 4, line: lineOf(BANK, "::Mischverhältnis::") }],
      ["Sonderzeichen { } = ~", { number: 5, line: lineOf(BANK, "::Sonderzeichen") }],
      ["Alarm", { number: 7, line: lineOf(BANK, "::Alarm::") }],
      ["Rauchmelder", { number: 13, line: lineOf(BANK, "::Rauchmelder::") }],
    ]);
    expect(result.unsupported.map((u) => [u.name, u.sourceType, u.reason, u.position])).toEqual([
      ["Hygieneplan beschreiben", "essay", "unsupported-type", { number: 6, line: lineOf(BANK, "::Hygieneplan") }],
      ["Brandklassen zuordnen", "matching", "unsupported-type", { number: 8, line: lineOf(BANK, "::Brandklassen") }],
      ["Abstand zum Feuerlöscher", "numerical", "unsupported-type", { number: 9, line: lineOf(BANK, "::Abstand") }],
      ["Notruf", "shortanswer", "unsupported-type", { number: 10, line: lineOf(BANK, "::Notruf::") }],
      ["Hinweis", "description", "not-a-question", { number: 11, line: lineOf(BANK, "::Hinweis::") }],
      ["Kaputt", "unknown", "syntax-error", { number: 12, line: lineOf(BANK, "::Kaputt::") }],
    ]);
    expect(result.unsupported.find((u) => u.reason === "syntax-error")?.detail).toMatch(
      new RegExp(`^line ${lineOf(BANK, "::Kaputt::")}: Expected`),
    );
  });

  it("reads = as the right answer of a single-choice question; answer feedback and #### general feedback make the explanation", () => {
    expect(result.questions[0]).toEqual({
      sourceName: "Einwirkzeit",
      kind: "single",
      text: "Wie lange muss das Händedesinfektionsmittel mindestens einwirken?",
      answers: [
        { text: "10 Sekunden", right: false },
        { text: "30 Sekunden", right: true },
        { text: "2 Minuten", right: false },
      ],
      explanation:
        "Die Einwirkzeit steht auf dem Etikett; für die hygienische Händedesinfektion meist 30 Sekunden.\n" +
        "<ul><li><em>10 Sekunden</em>: Zu kurz: die Hände müssen die ganze Zeit feucht bleiben.</li>" +
        "<li><em>30 Sekunden</em>: Richtig.</li></ul>",
      hint: null,
      category: "Hygiene",
      image: null,
      position: { number: 1, line: lineOf(BANK, "::Einwirkzeit::") },
    });
  });

  it("reads weights without = as multiple choice: positive weights right, negative wrong", () => {
    const q = byName(result, "Indikationen der Händedesinfektion");
    expect(q.kind).toBe("multiple");
    expect(q.answers.map((a) => a.right)).toEqual([true, true, false]);
  });

  it("reads {F} with Moodle's feedback order: the first for the wrong answer, the second for the right one", () => {
    const q = byName(result, "Schmuck");
    expect(q.answers).toEqual([
      { text: "true", right: false },
      { text: "false", right: true },
    ]);
    expect(q.explanation).toBe(
      "Unter Ringen vermehren sich Keime.\n" +
        "<ul><li><em>true</em>: Auch glatte Ringe sind nicht erlaubt (TRBA 250).</li><li><em>false</em>: Richtig, keine Ringe.</li></ul>",
    );
    expect(result.problems.filter((p) => p.name === "Schmuck").map((p) => p.code)).toEqual([
      "answer-feedback-merged",
      "true-false-labels",
    ]);
    expect(byName(result, "Rauchmelder").answers).toEqual([
      { text: "true", right: false },
      { text: "false", right: true },
    ]);
  });

  it("decodes escapes (\\: \\= \\~ \\{ \\}) in titles, texts and answers, and marks a missing word with a blank", () => {
    expect(byName(result, "Mischverhältnis").text).toBe(
      "Das Mischverhältnis 1:100 bedeutet 10 ml Konzentrat auf _____ Wasser.",
    );
    const q = byName(result, "Sonderzeichen { } = ~");
    expect(q.text).toBe("Welche Schreibweise ist richtig: a = b oder a ~ b?");
    expect(q.answers).toEqual([
      { text: "a = b {gleich}", right: true },
      { text: "a ~ b", right: false },
    ]);
  });

  it("reads [html] texts: plain text for the question and answers, HTML kept for the explanation", () => {
    const q = byName(result, "Alarm");
    expect(q.text).toBe("Sie entdecken einen Brand. Was tun Sie zuerst?");
    expect(q.answers.map((a) => a.text)).toEqual(["Brand melden", "Löschen", "Fenster öffnen"]);
    expect(q.explanation).toBe("<p>Merksatz: <em>Melden – Retten – Löschen</em>.</p>");
    expect(q.category).toBe("Brandschutz");
    expect(result.problems.filter((p) => p.name === "Alarm").map((p) => p.code)).toEqual(["formatting-removed"]);
  });

  it("reads the same file with Windows line ends and a byte-order mark alike", () => {
    expect(gift(`\uFEFF${BANK.replace(/\n/g, "\r\n")}`)).toEqual(result);
  });
});

describe("GIFT: mapping decisions", () => {
  it("single choice with a partial-credit answer: imported, that answer wrong, reported", () => {
    const r = gift("Was gehört in den Notfallkoffer? {=Beatmungsbeutel ~%50%Pflaster ~Kaffee}");
    expect(r.questions[0]).toMatchObject({
      kind: "single",
      answers: [{ right: true }, { right: false }, { right: false }],
    });
    expect(r.problems.map((p) => p.code)).toEqual(["weighted-partial-credit"]);
    expect(r.questions[0]?.sourceName).toBeNull();
    expect(r.problems[0]?.name).toBe("Was gehört in den Notfallkoffer?");
  });

  it("refuses choices that are all wrong, and several = answers beside wrong ones", () => {
    expect(gift("Frage A {~eins ~zwei}").unsupported[0]?.reason).toBe("no-right-answer");
    expect(gift("Frage B {=eins =zwei ~drei}").unsupported[0]?.reason).toBe("several-right-answers");
  });

  it("reads {T}, {TRUE} and {FALSE}", () => {
    for (const [mark, right] of [
      ["T", [true, false]],
      ["TRUE", [true, false]],
      ["FALSE", [false, true]],
    ] as const) {
      expect(gift(`Die Fluchtwege sind frei zu halten. {${mark}}`).questions[0]?.answers.map((a) => a.right)).toEqual(
        right,
      );
    }
  });

  it("reads lone colons as text, as Moodle does, but keeps the tolerance of numerical answers", () => {
    const r = gift("::Frage 1: Alarm::Merksatz: was zuerst? {=Melden#Richtig: melden. ~Löschen}");
    expect(r.questions[0]).toMatchObject({ sourceName: "Frage 1: Alarm", text: "Merksatz: was zuerst?" });
    const numerical = gift("Abstand in Metern? {#20:2}\n\nEin Text {=a ~b}");
    expect(numerical.unsupported[0]?.sourceType).toBe("numerical");
    expect(escapeLoneColons("a: b {#1:2 ####Hinweis: x} ::T:: c\n// kommentar: bleibt")).toBe(
      "a\\: b {#1:2 ####Hinweis\\: x} ::T:: c\n// kommentar: bleibt",
    );
  });

  it("reads markdown and plain formats", () => {
    const r = gift("[markdown]Was ist **wichtig**? {=[markdown]Der *Plan* ~Nichts ####[markdown]Immer **melden**.}");
    expect(r.questions[0]).toMatchObject({
      text: "Was ist wichtig?",
      answers: [{ text: "Der Plan" }, { text: "Nichts" }],
      explanation: "<p>Immer <strong>melden</strong>.</p>",
    });
    const plain = gift("[plain]Gilt 3 < 5 & 5 > 3? {T####[plain]Ja: 3 < 5.}");
    expect(plain.questions[0]?.text).toBe("Gilt 3 < 5 & 5 > 3?");
    expect(plain.questions[0]?.explanation).toBe("Ja: 3 &#60; 5.");
  });

  it("refuses to fetch an image given by address in an [html] question, and says so", () => {
    const r = gift(
      '[html]<p>Welches Zeichen?</p><img src\\="https\\://example.org/brand.png"> {=Rettungsweg ~Sammelplatz}',
    );
    expect(r.problems).toContainEqual(
      expect.objectContaining({ code: "remote-media-not-fetched", detail: "https://example.org/brand.png" }),
    );
    expect(r.questions[0]?.image).toBeNull();
  });

  it("starts a question right after a $CATEGORY line without a blank line between", () => {
    const r = gift("$CATEGORY: $course$/top/Brandschutz/Übungen\n::Q::Rauch steigt nach oben. {T}");
    expect(r.questions[0]).toMatchObject({ category: "Brandschutz / Übungen", position: { number: 1, line: 2 } });
  });

  it("throws not-gift for a file without any answer set, and syntax when no question can be read", () => {
    expect(() => gift("Nur ein Text.\n\nUnd noch einer.")).toThrow(expect.objectContaining({ code: "not-gift" }));
    expect(() => gift("// nur Kommentare\n$CATEGORY: Hygiene\n")).toThrow(
      expect.objectContaining({ code: "not-gift" }),
    );
    expect(() => gift('<?xml version="1.0"?><quiz></quiz>')).toThrow(expect.objectContaining({ code: "not-gift" }));
    expect(() => gift("\n\n::A:: Frage {=a ~b\n\n::B:: Frage {~%200%a}")).toThrow(
      expect.objectContaining({ code: "syntax", line: 3 }),
    );
  });
});

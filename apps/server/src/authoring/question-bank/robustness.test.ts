import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  MAX_QUESTION_BANK_LENGTH,
  parseQuestionBank,
  QuestionBankError,
  type QuestionBankFormat,
  type QuestionBankResult,
} from "./index";

/*
 * Whatever arrives, the parser answers with a result or a QuestionBankError: never another
 * exception, never an expanded entity.
 */

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");
const MOODLE = fixture("hygiene-brandschutz.moodle.xml");
const GIFT = fixture("hygiene-brandschutz.gift.txt");

/** The result, or the QuestionBankError thrown; any other exception fails the test. */
function outcome(format: QuestionBankFormat, text: string): QuestionBankResult | QuestionBankError {
  try {
    return parseQuestionBank(format, text);
  } catch (err) {
    // A QuestionBankError with a cause wraps an exception nobody expected: a bug, not a refusal.
    if (err instanceof QuestionBankError && err.cause === undefined) return err;
    throw new Error(`${format} threw ${String(err)} for ${JSON.stringify(text.slice(0, 80))}`);
  }
}

function errorOf(format: QuestionBankFormat, text: string): QuestionBankError {
  const r = outcome(format, text);
  if (!(r instanceof QuestionBankError)) throw new Error("expected a QuestionBankError");
  return r;
}

/** A small deterministic generator, so a failing case can be found again. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

describe("question banks that cannot be read", () => {
  it("refuses empty input, whitespace and a lone byte-order mark as empty", () => {
    for (const format of ["moodle-xml", "gift"] as const) {
      for (const text of ["", "  \n\t\r\n", "\uFEFF", "\uFEFF\r\n"]) expect(errorOf(format, text).code).toBe("empty");
    }
  });

  it("refuses more than MAX_QUESTION_BANK_LENGTH characters before reading any", () => {
    const big = `<quiz>${" ".repeat(MAX_QUESTION_BANK_LENGTH)}</quiz>`;
    expect(errorOf("moodle-xml", big).code).toBe("too-large");
    expect(errorOf("gift", `Frage {T}${"\n".repeat(MAX_QUESTION_BANK_LENGTH)}`).code).toBe("too-large");
  });

  it("names the line of malformed XML", () => {
    const err = errorOf("moodle-xml", fixture("malformed.moodle.xml"));
    expect(err.code).toBe("syntax");
    expect(err.line).toBe(15);
    expect(err.message).toMatch(/answer/);
  });

  it("refuses a billion-laughs entity expansion without expanding it", () => {
    const err = errorOf("moodle-xml", fixture("entity-expansion.moodle.xml"));
    expect(err.code).toBe("unsafe-xml");
    expect(err.message).not.toContain("lollol");
  });

  it("refuses external entities and a DOCTYPE hidden after the root element", () => {
    expect(errorOf("moodle-xml", fixture("external-entity.moodle.xml")).code).toBe("unsafe-xml");
    const late = `<quiz><question type="truefalse"><name><text>x</text></name></question><!DOCTYPE quiz [<!ENTITY a "b">]><question><name><text>&a;</text></name></question></quiz>`;
    expect(errorOf("moodle-xml", late).code).toBe("unsafe-xml");
    expect(errorOf("moodle-xml", `<quiz><!ENTITY a "b"></quiz>`).code).toBe("unsafe-xml");
  });

  it("tells a file of the wrong format", () => {
    expect(errorOf("moodle-xml", GIFT).code).toBe("not-moodle-xml");
    expect(errorOf("moodle-xml", "<!DOCTYPE html><html><body><p>Hallo</p></body></html>").code).toBe("not-moodle-xml");
    expect(errorOf("moodle-xml", '<?xml version="1.0"?><questestinterop></questestinterop>').code).toBe(
      "not-moodle-xml",
    );
    expect(errorOf("moodle-xml", '{"questions": []}').code).toBe("not-moodle-xml");
    expect(errorOf("gift", MOODLE).code).toBe("not-gift");
    expect(errorOf("gift", "Name;Vorname;Einrichtung\nMüller;Anna;Sonnenhof\n").code).toBe("not-gift");
  });

  it("reads XML numeric character references and leaves unknown entities for the HTML reader", () => {
    const xml = `<quiz><question type="multichoice"><name><text>Hitze &#x26; K&#228;lte &#0; &#x110000;</text></name>
      <questiontext format="html"><text>&lt;p&gt;K&amp;uuml;hlschrank&amp;nbsp;unter 7&amp;nbsp;&amp;deg;C?&lt;/p&gt;</text></questiontext>
      <answer fraction="100"><text>Ja</text></answer><answer fraction="0"><text>Nein</text></answer></question></quiz>`;
    const r = parseQuestionBank("moodle-xml", xml);
    expect(r.questions[0]?.sourceName).toBe("Hitze & Kälte &#0; &#x110000;");
    expect(r.questions[0]?.text).toBe("Kühlschrank unter 7 °C?");
  });

  it("refuses nesting deeper than the XML parser allows as a syntax error", () => {
    const deep = `<quiz>${"<a>".repeat(500)}${"</a>".repeat(500)}</quiz>`;
    expect(errorOf("moodle-xml", deep).code).toBe("syntax");
  });

  it("says when the text was probably not UTF-8", () => {
    const r = parseQuestionBank("gift", "Die Br\uFFFDcke ist frei. {T}");
    expect(r.problems[0]).toEqual({ code: "not-utf8", position: null, name: null, detail: null });
  });

  it("answers every cut-off prefix of both fixtures with a result or a QuestionBankError", () => {
    for (const [format, text] of [
      ["moodle-xml", MOODLE],
      ["gift", GIFT],
    ] as const) {
      for (let end = 0; end <= text.length; end += 97) outcome(format, text.slice(0, end));
    }
  });

  it("answers random damage to both fixtures with a result or a QuestionBankError", () => {
    const next = random(16);
    const noise = ["<", ">", "&", "]]>", "<![CDATA[", "{", "}", "=", "~", "#", "::", "\\", "%", "\n\n", "\u0000", "&#"];
    for (const [format, text] of [
      ["moodle-xml", MOODLE],
      ["gift", GIFT],
    ] as const) {
      for (let round = 0; round < 100; round++) {
        let damaged = text;
        for (let k = 0; k < 1 + Math.floor(next() * 5); k++) {
          const at = Math.floor(next() * damaged.length);
          const cut = Math.floor(next() * 20);
          const insert = noise[Math.floor(next() * noise.length)] ?? "";
          damaged = damaged.slice(0, at) + insert + damaged.slice(at + cut);
        }
        outcome(format, damaged);
      }
    }
  });

  it("answers binary and other arbitrary text with a result or a QuestionBankError", () => {
    const next = random(4711);
    for (let round = 0; round < 50; round++) {
      const chars = Array.from({ length: 1 + Math.floor(next() * 400) }, () =>
        String.fromCharCode(Math.floor(next() * 0x3000)),
      );
      const text = chars.join("");
      outcome("moodle-xml", text);
      outcome("moodle-xml", `<quiz>${text}</quiz>`);
      outcome("gift", text);
      outcome("gift", `Frage {${text}}`);
    }
  });

  it("reads a large bank of many questions", () => {
    const questions = Array.from(
      { length: 1000 },
      (_, i) =>
        `<question type="multichoice"><name><text>Frage ${i + 1}</text></name><questiontext format="html"><text><![CDATA[<p>Frage ${i + 1} zur Hygiene?</p>]]></text></questiontext><single>true</single><answer fraction="100"><text>Ja</text></answer><answer fraction="0"><text>Nein</text></answer></question>`,
    );
    const r = parseQuestionBank("moodle-xml", `<quiz>\n${questions.join("\n")}\n</quiz>`);
    expect(r.questions).toHaveLength(1000);
    expect(r.questions[999]?.position).toEqual({ number: 1000, line: 1001 });
    const g = parseQuestionBank(
      "gift",
      Array.from({ length: 1000 }, (_, i) => `::F${i + 1}::Frage ${i + 1}? {=Ja ~Nein}`).join("\n\n"),
    );
    expect(g.questions).toHaveLength(1000);
    expect(g.questions[999]?.position).toEqual({ number: 1000, line: 1999 });
  });

  it("reads one very long GIFT question without blank lines", () => {
    const long = `Frage? {\n${Array.from({ length: 5000 }, (_, i) => `~Antwort ${i}`).join("\n")}\n=Richtig\n}`;
    expect(parseQuestionBank("gift", long).questions[0]?.answers).toHaveLength(5001);
  });

  it("refuses an unknown format name with a QuestionBankError", () => {
    expect(() => parseQuestionBank("qti" as QuestionBankFormat, "<x/>")).toThrow(QuestionBankError);
  });
});

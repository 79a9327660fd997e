import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  type ChoiceOutcome,
  displayName,
  mapChoiceQuestion,
  type SourceAnswer,
  type SourceFormat,
  type SourceText,
} from "./choice-question";
import { categoryPath } from "./text";
import { QuestionBankError, type QuestionBankResult, type SourcePosition } from "./types";

/*
 * Moodle XML (question/format/xml in Moodle): <quiz> with <question type="…"> entries; a
 * type="category" entry sets the category of the questions after it. Texts are HTML in CDATA or
 * escaped, with a format attribute (html, moodle_auto_format, plain_text, markdown).
 *
 * Safety: a Moodle export never has a DOCTYPE, so any DOCTYPE or ENTITY declaration is refused
 * before parsing ("unsafe-xml"), and the parser runs with entity processing off besides; the five
 * XML escapes and numeric character references are decoded here, once. Well-formedness is checked
 * by fast-xml-parser's validator first (its error names the line).
 */

/** Every element as an array and every leaf with a #text: one shape to walk. */
interface XmlNode {
  "#text"?: string;
  "#cdata"?: XmlNode[];
  [key: string]: unknown;
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  processEntities: false,
  htmlEntities: false,
  cdataPropName: "#cdata",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  alwaysCreateTextNode: true,
  isArray: (_name, _path, _leaf, isAttribute) => !isAttribute,
  captureMetaData: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
});
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

/** Moodle question types read as choice questions; every other type is named as unsupported. */
const CHOICE_TYPES = new Set(["multichoice", "truefalse", "multichoiceset"]);

export function parseMoodleXml(text: string): QuestionBankResult {
  checkProlog(text);
  if (declaresEntities(text)) {
    throw new QuestionBankError("unsafe-xml", "The XML declares a DOCTYPE or entities; a Moodle export has none.");
  }
  let valid: ReturnType<typeof XMLValidator.validate>;
  try {
    valid = XMLValidator.validate(text);
  } catch (err) {
    throw new QuestionBankError("syntax", `Not readable as XML: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (valid !== true) {
    throw new QuestionBankError("syntax", `Not well-formed XML: ${valid.err.msg}`, valid.err.line, valid.err.col);
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(text) as Record<string, unknown>;
  } catch (err) {
    throw new QuestionBankError("syntax", `Not readable as XML: ${err instanceof Error ? err.message : String(err)}`);
  }
  const quiz = first(doc, "quiz");
  if (!quiz) throw new QuestionBankError("not-moodle-xml", "The root element is not <quiz>.");

  const result: QuestionBankResult = { questions: [], unsupported: [], problems: [] };
  const lines = lineCounter(text);
  let category: string | null = null;
  let number = 0;
  for (const q of children(quiz, "question")) {
    const type = attribute(q, "type").trim().toLowerCase();
    if (type === "category") {
      category = categoryPath(textOf(first(first(q, "category"), "text")));
      continue;
    }
    number += 1;
    const position: SourcePosition = { number, line: lines(startOf(q)) };
    const name = textOf(first(first(q, "name"), "text")).trim() || null;
    const questionText = textField(first(q, "questiontext"));
    if (!CHOICE_TYPES.has(type)) {
      result.unsupported.push({
        name: displayName(name, questionText),
        sourceType: type || "unknown",
        reason: type === "description" ? "not-a-question" : "unsupported-type",
        position,
        detail: null,
      });
      continue;
    }
    const outcome: ChoiceOutcome = mapChoiceQuestion({
      name,
      sourceType: type,
      position,
      category,
      single: type === "multichoice" ? isTrue(textOf(first(q, "single")), true) : type === "truefalse",
      trueFalse: type === "truefalse",
      text: questionText,
      answers: children(q, "answer").map(answerOf),
      generalFeedback: optionalTextField(first(q, "generalfeedback")),
      hints: children(q, "hint").map((h) => textField(h)),
      embeddedFiles: embeddedFiles(q),
    });
    if ("question" in outcome) result.questions.push(outcome.question);
    else result.unsupported.push(outcome.unsupported);
    result.problems.push(...outcome.problems);
  }
  return result;
}

function answerOf(a: XmlNode): SourceAnswer {
  const fraction = Number.parseFloat(attribute(a, "fraction"));
  return {
    text: textField(a),
    fraction: Number.isFinite(fraction) ? fraction : 0,
    feedback: optionalTextField(first(a, "feedback")),
  };
}

/** An element holding <text> and a format attribute (questiontext, answer, feedback, hint, …). */
function textField(el: XmlNode | undefined): SourceText {
  return { value: textOf(first(el, "text")), format: formatOf(el ? attribute(el, "format") : "") };
}

function optionalTextField(el: XmlNode | undefined): SourceText | null {
  return el ? textField(el) : null;
}

function formatOf(format: string): SourceFormat {
  switch (format.trim().toLowerCase()) {
    case "html":
      return "html";
    case "plain_text":
      return "plain";
    case "markdown":
      return "markdown";
    default:
      return "moodle-auto"; // Moodle's default when the attribute is missing
  }
}

function isTrue(value: string, fallback: boolean): boolean {
  const v = value.trim().toLowerCase();
  if (v === "true" || v === "1") return true;
  if (v === "false" || v === "0") return false;
  return fallback;
}

/**
 * The files embedded anywhere in a question (<file name="…" encoding="base64">), with their
 * content when it is base64 (Moodle writes nothing else).
 */
function embeddedFiles(node: XmlNode): { name: string; base64: string | null }[] {
  const files: { name: string; base64: string | null }[] = [];
  const walk = (n: XmlNode) => {
    for (const [key, value] of Object.entries(n)) {
      if (key.startsWith("@_") || key === "#text" || !Array.isArray(value)) continue;
      for (const child of value as XmlNode[]) {
        if (key !== "file") {
          walk(child);
          continue;
        }
        const base64 = attribute(child, "encoding").trim().toLowerCase() === "base64";
        const content = base64 ? textOf(child).replace(/\s+/g, "") : "";
        files.push({ name: attribute(child, "name") || "file", base64: content === "" ? null : content });
      }
    }
  };
  walk(node);
  return files;
}

function children(node: XmlNode | undefined, name: string): XmlNode[] {
  const value = node?.[name];
  return Array.isArray(value) ? (value as XmlNode[]) : [];
}

function first(node: XmlNode | Record<string, unknown> | undefined, name: string): XmlNode | undefined {
  return children(node as XmlNode | undefined, name)[0];
}

function attribute(node: XmlNode, name: string): string {
  const value = node[`@_${name}`];
  return typeof value === "string" ? decodeXml(value) : "";
}

/** An element's text: its character data decoded, its CDATA sections as they are. */
function textOf(node: XmlNode | undefined): string {
  if (!node) return "";
  const plain = decodeXml(typeof node["#text"] === "string" ? node["#text"] : "");
  const cdata = (node["#cdata"] ?? []).map((c) => (typeof c["#text"] === "string" ? c["#text"] : "")).join("");
  // Parts out of order can only happen for text mixed with CDATA, which Moodle never writes.
  return cdata && plain.trim() === "" ? cdata : plain + cdata;
}

const XML_ESCAPE = /&(?:(lt|gt|amp|quot|apos)|#([0-9]{1,7})|#x([0-9a-fA-F]{1,6}));/g;
const XML_NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** XML's escapes decoded in one pass; others (HTML's &nbsp; …) stay for the HTML reader. */
export function decodeXml(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(XML_ESCAPE, (whole, named?: string, dec?: string, hex?: string) => {
    if (named) return XML_NAMED[named] ?? whole;
    const code = dec ? Number.parseInt(dec, 10) : Number.parseInt(hex ?? "", 16);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : whole;
  });
}

function startOf(node: XmlNode): number | null {
  const meta = (node as Record<symbol, unknown>)[META] as { startIndex?: number } | undefined;
  return typeof meta?.startIndex === "number" ? meta.startIndex : null;
}

/** Line numbers of offsets given in increasing order, counting each character once. */
function lineCounter(text: string): (offset: number | null) => number | null {
  let at = 0;
  let line = 1;
  return (offset) => {
    if (offset === null || offset < at) return null;
    for (let i = text.indexOf("\n", at); i !== -1 && i < offset; i = text.indexOf("\n", i + 1)) line += 1;
    at = offset;
    return line;
  };
}

/**
 * The document's first markup after declarations and comments must be <quiz> (or a DOCTYPE for
 * <quiz>, refused later as unsafe): anything else (HTML, another LMS's XML, GIFT) is not Moodle XML.
 */
function checkProlog(text: string): void {
  let i = 0;
  for (;;) {
    while (i < text.length && /\s/.test(text.charAt(i))) i += 1;
    if (text.startsWith("<?", i) || text.startsWith("<!--", i)) {
      const end = text.indexOf(text.startsWith("<?", i) ? "?>" : "-->", i + 2);
      if (end === -1) break;
      i = end + 2;
      continue;
    }
    const head = text.slice(i, i + 300);
    const doctype = /^<!DOCTYPE\s+([^\s[>]+)/i.exec(head);
    if (doctype) {
      if (doctype[1] === "quiz") return;
      break;
    }
    const element = /^<([A-Za-z_][\w.:-]*)/.exec(head);
    if (element?.[1] === "quiz") return;
    break;
  }
  throw new QuestionBankError("not-moodle-xml", "Not a Moodle XML question export (no <quiz> element).");
}

/** Whether a DOCTYPE or ENTITY declaration appears outside comments and CDATA (linear scan). */
function declaresEntities(text: string): boolean {
  let i = 0;
  for (;;) {
    const lt = text.indexOf("<!", i);
    if (lt === -1) return false;
    if (text.startsWith("<![CDATA[", lt)) {
      const end = text.indexOf("]]>", lt + 9);
      if (end === -1) return false;
      i = end + 3;
    } else if (text.startsWith("<!--", lt)) {
      const end = text.indexOf("-->", lt + 4);
      if (end === -1) return false;
      i = end + 3;
    } else {
      const word = text.slice(lt + 2, lt + 9).toUpperCase();
      if (word.startsWith("DOCTYPE") || word.startsWith("ENTITY")) return true;
      i = lt + 2;
    }
  }
}

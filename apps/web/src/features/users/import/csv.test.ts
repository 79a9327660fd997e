import { IMPORT_FIELDS, IMPORT_MAX_ROWS, type ImportRow } from "@carecampus/contract";
import iconv from "iconv-lite";
import { describe, expect, it } from "vitest";
import { decodeCsv, detectDelimiter, isCsvFileName, parseUserCsv, templateCsv } from "./csv";

const HEADER = "surname;name;login;facility;activities;qualifications;password";

/** Turkish and Polish names: beyond Windows-1252, so only in the Unicode fixtures. */
const UNICODE_CSV = [
  HEADER,
  'Öztürk;Şükrü;sukru.ozturk;Haus Sonnenhof;"Tagespflege;Nachtdienst";Altenpfleger/in;Sukru-2024!',
  "Yıldız;Ayşe;ayse.yildiz;Haus Sonnenhof;Küche;;Ayse-2024!",
  "Gündoğan;İlkay;ilkay.gundogan;Haus Lindenhof;;;",
  "Wróbel;Łukasz;lukasz.wrobel;Haus Lindenhof;Palliativpflege;Pflegehelfer/in;Lukasz-2024!",
  "Żółć;Zofia;zofia.zolc;Haus Lindenhof;;;Zofia-2024!",
  "Brzęczyszczykiewicz;Grzegorz;grzegorz.b;Haus Lindenhof;;;Grzegorz-2024!",
  "Müller-Weiß;Jürgen;juergen.mw;Haus Sonnenhof;;;Juergen-2024!",
  "Lefèvre;Hélène;helene.lefevre;Haus Sonnenhof;;;Helene-2024!",
].join("\r\n");

/**
 * German and French names in Windows-1252, with œ, €, „ and “, which Latin-1 lacks: a decoder
 * that is really Latin-1 (Node's TextDecoder('windows-1252')) would turn them into control characters.
 */
const WINDOWS_1252_CSV = [
  `${HEADER};Bemerkung`,
  'Müller-Weiß;Jürgen;juergen.mw;Haus Sonnenhof;"Tagespflege;Nachtdienst";Altenpfleger/in;Juergen-2024!;Beitrag 5 € „bezahlt“',
  "Größe;Änne;aenne.groesse;Haus Sonnenhof;;Koch/Köchin;Aenne-2024!;",
  "Lefèvre;Hélène;helene.lefevre;Haus Lindenhof;;;Helene-2024!;",
  "Cœur;François;francois.coeur;Haus Lindenhof;Küche;;Francois-2024!;Œuvre – Š",
].join("\r\n");

const row = (partial: Partial<ImportRow>): ImportRow => ({
  surname: "",
  name: "",
  login: "",
  facility: "",
  activities: [],
  qualifications: [],
  password: "",
  ...partial,
});

const bytes = (...parts: (number[] | Uint8Array)[]) => new Uint8Array(parts.flatMap((p) => [...p]));
const utf8 = (text: string) => new TextEncoder().encode(text);

function parsedRows(text: string) {
  const parsed = parseUserCsv(text);
  if (!("rows" in parsed)) throw new Error(`not parsed: ${JSON.stringify(parsed)}`);
  return parsed;
}

describe("decodeCsv", () => {
  it("reads UTF-8 with a byte order mark and strips the mark", async () => {
    const decoded = await decodeCsv(bytes([0xef, 0xbb, 0xbf], utf8(UNICODE_CSV)));
    expect(decoded).toEqual({ text: UNICODE_CSV, encoding: "utf-8" });
  });

  it("reads UTF-8 without a byte order mark", async () => {
    expect(await decodeCsv(utf8(UNICODE_CSV))).toEqual({ text: UNICODE_CSV, encoding: "utf-8" });
  });

  it("reads Windows-1252 with €, „ “, Š and œ, not as Latin-1", async () => {
    const encoded = iconv.encode(WINDOWS_1252_CSV, "win1252");
    // The fixture really differs between the two: a Latin-1 reading would fail the test.
    expect(iconv.decode(encoded, "latin1")).not.toBe(WINDOWS_1252_CSV);
    expect(await decodeCsv(encoded)).toEqual({ text: WINDOWS_1252_CSV, encoding: "windows-1252" });
  });

  it("reads Windows-1252 with a single umlaut", async () => {
    const text = `${HEADER}\r\nMüller;Hans;hans.m;Haus Sonnenhof;;;Hans-2024!\r\n`;
    expect(await decodeCsv(iconv.encode(text, "win1252"))).toEqual({ text, encoding: "windows-1252" });
  });

  it("reads the same Windows-1252 names whatever logins stand beside them (no statistical guess)", async () => {
    // A detector's ranking shifts with the ASCII around the umlauts; these logins once tipped it to Windows-1250.
    for (let i = 0; i < 300; i++) {
      const login = (1_763_900_000_000 + i * 7919).toString(36);
      const text = `${HEADER}\r\nMüller-Weiß;Jürgen;j.${login};Haus Sonnenhof;"Tagespflege;Nachtdienst";Altenpfleger/in;x\r\nGröße;Änne;a.${login};Haus Sonnenhof;Küche;Koch/Köchin;x\r\nCœur;François;f.${login};haus lindenhof;;;x\r\n`;
      expect(await decodeCsv(iconv.encode(text, "win1252"))).toEqual({ text, encoding: "windows-1252" });
    }
  });

  it("reads UTF-16 LE with a byte order mark (Excel's 'Unicode text')", async () => {
    const encoded = bytes([0xff, 0xfe], iconv.encode(UNICODE_CSV, "utf16le"));
    expect(await decodeCsv(encoded)).toEqual({ text: UNICODE_CSV, encoding: "utf-16le" });
  });

  it("reads UTF-16 BE with a byte order mark", async () => {
    const encoded = bytes([0xfe, 0xff], iconv.encode(UNICODE_CSV, "utf16be"));
    expect(await decodeCsv(encoded)).toEqual({ text: UNICODE_CSV, encoding: "utf-16be" });
  });

  it("reads UTF-16 without a byte order mark by its NUL bytes", async () => {
    expect(await decodeCsv(iconv.encode(UNICODE_CSV, "utf16le"))).toEqual({ text: UNICODE_CSV, encoding: "utf-16le" });
    expect(await decodeCsv(iconv.encode(UNICODE_CSV, "utf16be"))).toEqual({ text: UNICODE_CSV, encoding: "utf-16be" });
  });

  it("refuses binary files", async () => {
    const png = bytes([
      0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0x81,
    ]);
    expect(await decodeCsv(png)).toEqual({ error: "wrongEncoding" });
    const pdf = iconv.encode("%PDF-1.4\n%âãÏÓ\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", "latin1");
    expect(await decodeCsv(pdf)).toEqual({ error: "wrongEncoding" });
    // Pseudo-random bytes without NULs, so only the detector can refuse them.
    let seed = 7;
    const noise = Uint8Array.from({ length: 2048 }, () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return (seed % 255) + 1;
    });
    expect(await decodeCsv(noise)).toEqual({ error: "wrongEncoding" });
  });

  it("refuses UTF-8 text with control characters (a binary file that happens to be valid UTF-8)", async () => {
    expect(await decodeCsv(utf8(`${HEADER}\n\u0001\u0002\u0003`))).toEqual({ error: "wrongEncoding" });
  });

  it("refuses a byte order mark the bytes after it break", async () => {
    expect(await decodeCsv(bytes([0xef, 0xbb, 0xbf, 0x41, 0xc3, 0x28]))).toEqual({ error: "wrongEncoding" });
    expect(await decodeCsv(bytes([0xff, 0xfe, 0x00, 0xd8, 0x41, 0x00]))).toEqual({ error: "wrongEncoding" });
  });

  it("refuses legacy encodings other than Windows-1252 instead of garbling them", async () => {
    const polish = `${HEADER}\nWróbel;Łukasz;lw;Haus Lindenhof;;;x\nŻółć;Zofia;zz;Haus Lindenhof;;;x\n`;
    expect(await decodeCsv(iconv.encode(polish, "win1250"))).toEqual({ error: "wrongEncoding" });
    const cyrillic = `${HEADER}\nИванов;Иван;ivan;Haus Lindenhof;;;x\n`;
    expect(await decodeCsv(iconv.encode(cyrillic, "win1251"))).toEqual({ error: "wrongEncoding" });
  });
});

describe("isCsvFileName", () => {
  it("accepts the .csv extension in any case and nothing else", () => {
    expect(isCsvFileName("Mitarbeiter.csv")).toBe(true);
    expect(isCsvFileName("EXPORT.CSV")).toBe(true);
    expect(isCsvFileName("liste.txt")).toBe(false);
    expect(isCsvFileName("liste.csv.pdf")).toBe(false);
    expect(isCsvFileName("csv")).toBe(false);
  });
});

describe("detectDelimiter", () => {
  it("takes the most frequent of ; , and tab outside quotes", () => {
    expect(detectDelimiter(HEADER)).toBe(";");
    expect(detectDelimiter(HEADER.replaceAll(";", ","))).toBe(",");
    expect(detectDelimiter(HEADER.replaceAll(";", "\t"))).toBe("\t");
    expect(detectDelimiter('"a;b;c;d",x,y')).toBe(",");
  });
});

describe("parseUserCsv", () => {
  it("parses a semicolon file with quoted lists into rows", () => {
    const parsed = parsedRows(UNICODE_CSV);
    expect(parsed.delimiter).toBe(";");
    expect(parsed.rows).toHaveLength(8);
    expect(parsed.rows[0]).toEqual({
      surname: "Öztürk",
      name: "Şükrü",
      login: "sukru.ozturk",
      facility: "Haus Sonnenhof",
      activities: ["Tagespflege", "Nachtdienst"],
      qualifications: ["Altenpfleger/in"],
      password: "Sukru-2024!",
    });
    expect(parsed.rows[2]).toEqual(
      row({ surname: "Gündoğan", name: "İlkay", login: "ilkay.gundogan", facility: "Haus Lindenhof" }),
    );
    expect(parsed.rows.map((r) => r.surname)).toContain("Brzęczyszczykiewicz");
  });

  it("parses a comma file with a delimiter inside quotes and lists split by semicolons", () => {
    const text = [
      HEADER.replaceAll(";", ","),
      '"Lefèvre, née Martin",Hélène,helene.l,Haus Sonnenhof,Tagespflege;Küche,"Koch/Köchin; Küchenhilfe",Helene-2024!',
      '"Cœur ""Coco""",François,francois.c,Haus Lindenhof,,,',
    ].join("\n");
    const parsed = parsedRows(text);
    expect(parsed.delimiter).toBe(",");
    expect(parsed.rows[0]).toMatchObject({
      surname: "Lefèvre, née Martin",
      activities: ["Tagespflege", "Küche"],
      qualifications: ["Koch/Köchin", "Küchenhilfe"],
    });
    expect(parsed.rows[1]?.surname).toBe('Cœur "Coco"');
  });

  it("parses a tab file, as Excel's 'Unicode text' writes it", () => {
    const text = `${HEADER.replaceAll(";", "\t")}\nWróbel\tŁukasz\tlukasz.w\tHaus Lindenhof\tKüche;Reinigung\t\tLukasz-2024!\n`;
    const parsed = parsedRows(text);
    expect(parsed.delimiter).toBe("\t");
    expect(parsed.rows).toEqual([
      row({
        surname: "Wróbel",
        name: "Łukasz",
        login: "lukasz.w",
        facility: "Haus Lindenhof",
        activities: ["Küche", "Reinigung"],
        password: "Lukasz-2024!",
      }),
    ]);
  });

  it("matches header names in any order and case, trimmed, and ignores extra columns", () => {
    const text = [
      " Password ;LOGIN;Bemerkung;Name;Surname;Facility;Qualifications;Activities",
      "Zofia-2024!;zofia.z;egal;Zofia;Żółć;Haus Lindenhof;;Küche",
    ].join("\n");
    expect(parsedRows(text).rows).toEqual([
      row({
        surname: "Żółć",
        name: "Zofia",
        login: "zofia.z",
        facility: "Haus Lindenhof",
        activities: ["Küche"],
        password: "Zofia-2024!",
      }),
    ]);
  });

  it("lists the missing header fields in template order", () => {
    expect(parseUserCsv("name;surname;login\nA;B;c\n")).toEqual({
      error: "missingHeaders",
      missing: ["facility", "activities", "qualifications", "password"],
    });
    expect(parseUserCsv("Jürgen;Müller;jm\n")).toEqual({ error: "missingHeaders", missing: [...IMPORT_FIELDS] });
  });

  it("handles CRLF, LF and a trailing newline alike, and skips empty rows", () => {
    const lines = [HEADER, "A;Anna;anna;Haus Sonnenhof;;;", "", ";;;;;;", "B;Ben;ben;Haus Sonnenhof;;;"];
    const crlf = parsedRows(`${lines.join("\r\n")}\r\n`);
    const lf = parsedRows(lines.join("\n"));
    expect(crlf).toEqual(lf);
    expect(lf.rows.map((r) => r.login)).toEqual(["anna", "ben"]);
    // Row numbers as Excel shows them: the header is row 1, the skipped rows still count.
    expect(lf.rowNumbers).toEqual([2, 5]);
  });

  it("fills missing cells of a short row with empty text", () => {
    expect(parsedRows(`${HEADER}\nMüller;Jürgen;jm`).rows).toEqual([
      row({ surname: "Müller", name: "Jürgen", login: "jm" }),
    ]);
  });

  it("trims cells and normalises them to NFC", () => {
    const decomposed = "Mu\u0308ller-Wei\u00df";
    const rows = parsedRows(`${HEADER}\n  ${decomposed} ; Jürgen ;jm;Haus Sonnenhof;;;\n`).rows;
    expect(rows[0]?.surname).toBe("Müller-Weiß");
    expect(rows[0]?.surname).toHaveLength(11);
    expect(rows[0]?.name).toBe("Jürgen");
  });

  it("calls a file empty without rows", () => {
    expect(parseUserCsv("")).toEqual({ error: "empty" });
    expect(parseUserCsv("\uFEFF\r\n\r\n")).toEqual({ error: "empty" });
    expect(parseUserCsv(`${HEADER}\r\n;;;;;;\r\n`)).toEqual({ error: "empty" });
  });

  it("refuses more rows than one import may hold", () => {
    const line = "A;Anna;anna;Haus Sonnenhof;;;\n";
    expect(parseUserCsv(`${HEADER}\n${line.repeat(IMPORT_MAX_ROWS + 1)}`)).toEqual({ error: "tooManyRows" });
    expect(parsedRows(`${HEADER}\n${line.repeat(IMPORT_MAX_ROWS)}`).rows).toHaveLength(IMPORT_MAX_ROWS);
  });

  it("refuses an unbalanced quote, naming its row", () => {
    expect(parseUserCsv(`${HEADER}\nA;Anna;anna;Haus Sonnenhof;;;\n"B;Ben;ben;Haus Sonnenhof;;;\n`)).toEqual({
      error: "badQuotes",
      row: 3,
    });
  });

  it("honours Excel's sep= hint line", () => {
    const parsed = parsedRows(`sep=,\n${HEADER.replaceAll(";", ",")}\nA,Anna,anna,Haus Sonnenhof,"x;y",,\n`);
    expect(parsed.delimiter).toBe(",");
    expect(parsed.rows[0]?.activities).toEqual(["x", "y"]);
  });
});

describe("decoding and parsing together", () => {
  it("turns a Windows-1252 semicolon file into rows", async () => {
    const decoded = await decodeCsv(iconv.encode(WINDOWS_1252_CSV, "win1252"));
    if (!("text" in decoded)) throw new Error("not decoded");
    const { rows } = parsedRows(decoded.text);
    expect(rows.map((r) => `${r.name} ${r.surname}`)).toEqual([
      "Jürgen Müller-Weiß",
      "Änne Größe",
      "Hélène Lefèvre",
      "François Cœur",
    ]);
    expect(rows[0]?.activities).toEqual(["Tagespflege", "Nachtdienst"]);
  });

  it("turns a UTF-16 LE tab file into rows", async () => {
    const tabbed = UNICODE_CSV.replaceAll(";", "\t").replace("Tagespflege\tNachtdienst", "Tagespflege;Nachtdienst");
    const decoded = await decodeCsv(bytes([0xff, 0xfe], iconv.encode(tabbed, "utf16le")));
    if (!("text" in decoded)) throw new Error("not decoded");
    const parsed = parsedRows(decoded.text);
    expect(parsed.delimiter).toBe("\t");
    expect(parsed.rows.map((r) => r.name)).toEqual([
      "Şükrü",
      "Ayşe",
      "İlkay",
      "Łukasz",
      "Zofia",
      "Grzegorz",
      "Jürgen",
      "Hélène",
    ]);
    expect(parsed.rows[0]?.activities).toEqual(["Tagespflege", "Nachtdienst"]);
  });

  it("reads its own template back", async () => {
    const example = row({
      surname: "Müller",
      name: "Anna",
      login: "anna.mueller",
      facility: "Haus Sonnenhof",
      activities: ["Tagespflege", "Nachtdienst"],
      qualifications: ["Altenpfleger/in"],
      password: "Anna-2024!",
    });
    const decoded = await decodeCsv(templateCsv(example));
    expect(decoded).toMatchObject({ encoding: "utf-8" });
    if (!("text" in decoded)) throw new Error("not decoded");
    expect(decoded.text.split("\r\n")[0]).toBe(HEADER);
    expect(parsedRows(decoded.text)).toEqual({ rows: [example], rowNumbers: [2], delimiter: ";" });
  });
});

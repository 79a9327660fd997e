import fs from "node:fs";
import { createRequire } from "node:module";
import { formatDate, formatVerificationCode, verificationAddress } from "@carecampus/contract";
import type { PDFFont, PDFPage, RGB, Rotation } from "pdf-lib";

const require = createRequire(import.meta.url);
const fontDir = `${require.resolve("dejavu-fonts-ttf/package.json").replace(/package\.json$/, "")}ttf/`;
// Standard PDF fonts cannot write Łukasz or Şükrü: embed a Unicode font (subset per document).

/**
 * The PDF libraries and fonts, loaded with the first certificate: a server that never renders
 * one (or not yet) does not carry their ~60 MB.
 */
let tools: ReturnType<typeof loadTools> | undefined;
async function loadTools() {
  const [{ PDFDocument, rgb, degrees }, { default: fontkit }, { default: QRCode }] = await Promise.all([
    import("pdf-lib"),
    import("@pdf-lib/fontkit"),
    import("qrcode"),
  ]);
  const [regular, bold] = await Promise.all([
    fs.promises.readFile(`${fontDir}DejaVuSans.ttf`),
    fs.promises.readFile(`${fontDir}DejaVuSans-Bold.ttf`),
  ]);
  return { PDFDocument, rgb, degrees, fontkit, QRCode, fonts: { regular, bold } };
}

/** The PDF libraries and the Unicode fonts, loaded once (also for the evidence report, issue 29). */
export function pdfTools(): ReturnType<typeof loadTools> {
  tools ??= loadTools();
  return tools;
}

export interface CertificateData {
  name: string;
  surname: string;
  training: string;
  topic: string;
  facility: string | null;
  acquiredAt: Date;
  expiresAt: Date;
  points: number;
  verificationCode: string;
  /** PUBLIC_URL: the certificate is verified at PUBLIC_URL/v/<code>, which its QR code holds. */
  verifyAt: string;
  passive: boolean;
  /**
   * The law that makes the training mandatory, printed for an inspector; null when the training
   * has none or the installation does not show it (show-legal-compliance).
   */
  legalBasis: string | null;
  /** The configured time zone the dates are shown in. */
  zone: string;
  /** When it was revoked (issue 29): still downloadable for the record, stamped across. */
  revokedAt?: Date | null;
}

function centred(
  page: PDFPage,
  text: string,
  y: number,
  font: PDFFont,
  size: number,
  color: RGB,
  maxWidth = 480,
): void {
  let s = size;
  while (font.widthOfTextAtSize(text, s) > maxWidth && s > 8) s -= 0.5;
  const width = font.widthOfTextAtSize(text, s);
  page.drawText(text, { x: (page.getWidth() - width) / 2, y, size: s, font, color });
}

/** After these a line never breaks: "§ 4 | LasthandhabV" would part a citation from its law. */
const BINDS_NEXT = /^(§§?|Art\.|Abs\.|Nr\.|Satz|lit\.|\d+[a-z]?)$/;

/**
 * `text` in lines no wider than `maxWidth` at `size`, broken between words but never inside a
 * citation (a group too long on its own keeps its line).
 */
export function wrap(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const groups: string[] = [];
  for (const word of text.split(" ")) {
    const last = groups.length - 1;
    const lastWord = groups[last]?.split(" ").at(-1) ?? "";
    if (last >= 0 && BINDS_NEXT.test(lastWord)) groups[last] = `${groups[last]} ${word}`;
    else groups.push(word);
  }
  const lines: string[] = [];
  let line = "";
  for (const group of groups) {
    const next = line === "" ? group : `${line} ${group}`;
    if (line !== "" && font.widthOfTextAtSize(next, size) > maxWidth) {
      lines.push(line);
      line = group;
    } else line = next;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** A one-page A4 certificate: name, training, topic, dates, facility and a verification code. */
export async function renderCertificate(c: CertificateData): Promise<Uint8Array> {
  const { PDFDocument, rgb, degrees, fontkit, QRCode, fonts } = await pdfTools();
  const TEAL = rgb(0.059, 0.463, 0.431);
  const DARK = rgb(0.075, 0.306, 0.29);
  const GREY = rgb(0.35, 0.38, 0.4);
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const regular = await doc.embedFont(fonts.regular, { subset: true });
  const bold = await doc.embedFont(fonts.bold, { subset: true });
  doc.setTitle(`Zertifikat ${c.training} – ${c.name} ${c.surname}`);
  doc.setAuthor("CareCampus");
  doc.setSubject(`Verification code ${c.verificationCode}`);
  doc.setCreationDate(c.acquiredAt);

  const page = doc.addPage([595.28, 841.89]);
  const { width, height } = page.getSize();
  // Frame and header band.
  page.drawRectangle({ x: 24, y: 24, width: width - 48, height: height - 48, borderColor: TEAL, borderWidth: 2 });
  page.drawRectangle({
    x: 30,
    y: 30,
    width: width - 60,
    height: height - 60,
    borderColor: rgb(0.6, 0.85, 0.82),
    borderWidth: 0.8,
  });
  page.drawRectangle({ x: 24, y: height - 150, width: width - 48, height: 126, color: TEAL });
  // The mark: a heart with a check, drawn as vector shapes.
  page.drawSvgPath(
    "M24 42 C10 32 2 24 2 14 C2 7 7 2 13 2 C18 2 21 5 24 9 C27 5 30 2 35 2 C41 2 46 7 46 14 C46 24 38 32 24 42 Z",
    {
      x: width / 2 - 24,
      y: height - 52,
      color: rgb(1, 1, 1),
    },
  );
  page.drawSvgPath("M14 20 L21 27 L34 13", { x: width / 2 - 24, y: height - 52, borderColor: TEAL, borderWidth: 4 });
  centred(page, "CareCampus", height - 118, bold, 22, rgb(1, 1, 1));
  centred(page, "Pflichtschulungen in der Pflege", height - 138, regular, 10, rgb(0.85, 0.96, 0.94));

  centred(page, "ZERTIFIKAT", height - 220, bold, 34, DARK);
  centred(page, "Certificate of completion", height - 244, regular, 11, GREY);
  centred(page, "Hiermit wird bestätigt, dass", height - 300, regular, 13, GREY);
  centred(page, `${c.name} ${c.surname}`, height - 342, bold, 26, DARK);
  if (c.facility) centred(page, c.facility, height - 366, regular, 12, GREY);
  centred(page, c.passive ? "an der Präsenzschulung" : "die Schulung", height - 410, regular, 13, GREY);
  centred(page, c.training, height - 446, bold, 20, TEAL);
  centred(page, `Themenbereich: ${c.topic}`, height - 472, regular, 12, GREY);
  centred(
    page,
    c.passive ? "erfolgreich teilgenommen hat." : "erfolgreich abgeschlossen hat.",
    height - 510,
    regular,
    13,
    GREY,
  );

  // Dates in two columns.
  const rowY = height - 590;
  const col = (x: number, label: string, value: string) => {
    page.drawText(label, { x, y: rowY + 20, size: 10, font: regular, color: GREY });
    page.drawText(value, { x, y: rowY, size: 15, font: bold, color: DARK });
  };
  col(90, "Erworben am / acquired", formatDate(c.acquiredAt, c.zone));
  col(330, "Gültig bis / valid until", formatDate(c.expiresAt, c.zone));
  page.drawLine({
    start: { x: 90, y: rowY - 14 },
    end: { x: width - 90, y: rowY - 14 },
    thickness: 0.6,
    color: rgb(0.8, 0.85, 0.85),
  });
  // Below the dates: the legal basis (at most 200 characters: three lines at this size), then the points.
  let y = rowY - 36;
  if (c.legalBasis) {
    page.drawText("Rechtsgrundlage / legal basis", { x: 90, y, size: 10, font: regular, color: GREY });
    // Three lines fit above the QR code: a long text gets a smaller size rather than a fourth.
    let size = 11;
    let lines = wrap(c.legalBasis, regular, size, width - 180);
    while (lines.length > 3 && size > 8) {
      size -= 1;
      lines = wrap(c.legalBasis, regular, size, width - 180);
    }
    for (const line of lines.slice(0, 3)) {
      y -= size + 4;
      page.drawText(line, { x: 90, y, size, font: regular, color: DARK });
    }
    y -= 22;
  }
  if (c.points > 0) page.drawText(`Punkte / points: ${c.points}`, { x: 90, y, size: 10, font: regular, color: GREY });

  // Verification code and QR code at the foot: the QR code holds the public page's address
  // (verify/), the address and the code stand beside it for typing.
  const qr = await QRCode.toBuffer(verificationAddress(c.verifyAt, c.verificationCode), {
    errorCorrectionLevel: "M",
    margin: 1,
    width: 220,
    color: { dark: "#134e4a", light: "#ffffff" },
  });
  const qrImage = await doc.embedPng(qr);
  page.drawImage(qrImage, { x: width - 90 - 96, y: 70, width: 96, height: 96 });
  page.drawText("Prüfcode / verification code", { x: 90, y: 130, size: 10, font: regular, color: GREY });
  page.drawText(formatVerificationCode(c.verificationCode), { x: 90, y: 111, size: 16, font: bold, color: DARK });
  const address = `${c.verifyAt}/v`;
  let addressSize = 9;
  while (
    regular.widthOfTextAtSize(`Prüfen unter / verify at: ${address}`, addressSize) > width - 300 &&
    addressSize > 6
  ) {
    addressSize -= 0.5;
  }
  page.drawText(`Prüfen unter / verify at: ${address}`, {
    x: 90,
    y: 95,
    size: addressSize,
    font: regular,
    color: GREY,
  });
  page.drawText("Ausgestellt von CareCampus. Dieses Zertifikat ist ohne Unterschrift gültig.", {
    x: 90,
    y: 78,
    size: 8,
    font: regular,
    color: GREY,
  });
  if (c.revokedAt) {
    revokedStamp(
      page,
      { font: bold, color: rgb(0.75, 0.1, 0.1), rotate: degrees(30) },
      formatDate(c.revokedAt, c.zone),
    );
  }
  return doc.save();
}

/** A revoked certificate's stamp: across the page, so no copy of it passes for proof. */
function revokedStamp(page: PDFPage, look: { font: PDFFont; color: RGB; rotate: Rotation }, day: string): void {
  const { width, height } = page.getSize();
  const angle = Math.PI / 6; // the 30° of look.rotate
  ["WIDERRUFEN / REVOKED", day].forEach((text, i) => {
    const size = i === 0 ? 40 : 24;
    const half = look.font.widthOfTextAtSize(text, size) / 2;
    // Each line turned about its start, its middle on the page's middle; the day below the word.
    const below = i * 46;
    const x = width / 2 - half * Math.cos(angle) + below * Math.sin(angle);
    const y = height / 2 - half * Math.sin(angle) - below * Math.cos(angle);
    page.drawText(text, { x, y, size, ...look, opacity: 0.6 });
  });
}

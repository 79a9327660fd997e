import { addMonths, newVerificationCode, startOfDayAfter } from "@carecampus/contract";
import { and, desc, eq, gte, lt } from "drizzle-orm";
import { type Actor, assertMay, notFound } from "../access/policy";
import { auditSubject } from "../audit/people";
import { recordAudit } from "../audit/record";
import { viewCertificate } from "../credentials/service";
import type { Db, Tx } from "../db/client";
import { lockForTransaction } from "../db/locks";
import { certificates, partnerCertificates, users } from "../db/schema";
import { type CertificateData, renderCertificate } from "./pdf";

/** What issuing needs of a training: its validity, its points and the certificate held now. */
export interface CertifiedTraining {
  id: number;
  validityMonths: number;
  points: number;
  newest: { expiresAt: Date } | null;
}

/**
 * Issues the training's certificate (decision 4): from the old expiry when renewed before it,
 * otherwise from now; the training's points come with it. The validity's months are calendar
 * months in the configured time zone `zone`. Runs inside the caller's transaction.
 */
export async function issueCertificate(
  tx: Tx,
  userId: number,
  training: CertifiedTraining,
  now: Date,
  zone: string,
  markedBy: number | null = null,
): Promise<number> {
  const base = training.newest && training.newest.expiresAt > now ? training.newest.expiresAt : now;
  const [row] = await tx
    .insert(certificates)
    .values({
      userId,
      trainingId: training.id,
      acquiredAt: now,
      expiresAt: addMonths(base, training.validityMonths, zone),
      points: training.points,
      markedBy,
      // 80 random bits and a check character (rules/verification-code.ts): no code can be guessed.
      verificationCode: newVerificationCode(),
    })
    .returning({ id: certificates.id });
  return (row as { id: number }).id;
}

/** A passive training's certificate as the marks answer with it. */
export interface PassiveCertificate {
  id: number;
  acquiredAt: Date;
  expiresAt: Date;
  /** False when a certificate of that day was given back instead. */
  issued: boolean;
}

/**
 * A passive (in-person) training passed on `at` (decision 5): a certificate with the training's
 * validity from that moment, marked by `markedBy`. One of the same training acquired on the
 * same calendar day is given back instead: a double click, or the overview's mark and the
 * event's attendance for one session, are no renewal. Runs inside the caller's transaction; a
 * certificate issued is recorded in the audit trail (`via`: the overview's mark or an event's
 * attendance) at `now`.
 */
export async function certifyPassive(
  tx: Tx,
  userId: number,
  training: Omit<CertifiedTraining, "newest">,
  at: Date,
  zone: string,
  by: { actor: Actor; via: "passive_mark" | "attendance"; now: Date },
): Promise<PassiveCertificate> {
  // Serialises marks of the same user: two clicks at once still give one certificate.
  await lockForTransaction(tx, "passiveMarks", userId);
  const dayStart = startOfDayAfter(at, 0, zone);
  const columns = { id: certificates.id, acquiredAt: certificates.acquiredAt, expiresAt: certificates.expiresAt };
  const [sameDay] = await tx
    .select(columns)
    .from(certificates)
    .where(
      and(
        eq(certificates.userId, userId),
        eq(certificates.trainingId, training.id),
        gte(certificates.acquiredAt, dayStart),
        lt(certificates.acquiredAt, startOfDayAfter(at, 1, zone)),
      ),
    )
    .orderBy(desc(certificates.acquiredAt), desc(certificates.id))
    .limit(1);
  if (sameDay) return { ...sameDay, issued: false };
  const id = await issueCertificate(tx, userId, { ...training, newest: null }, at, zone, by.actor.id);
  const issued = (await tx.select(columns).from(certificates).where(eq(certificates.id, id)))[0] as Omit<
    PassiveCertificate,
    "issued"
  >;
  await recordAudit(
    tx,
    {
      kind: "certificate.issued",
      actor: by.actor,
      ...(await auditSubject(tx, userId)),
      data: {
        certificate: id,
        training: training.id,
        via: by.via,
        acquired_at: issued.acquiredAt.toISOString(),
        expires_at: issued.expiresAt.toISOString(),
      },
    },
    by.now,
  );
  return { ...issued, issued: true };
}

/**
 * A partner provider's certificate as it sent it (docs/partner-contract.md): by its own id
 * (`source=partner`) or as the training certificate it was counted as.
 */
async function partnerPdf(db: Db, by: { partnerId: number } | { certificateId: number }) {
  const [row] = await db
    .select({
      userId: partnerCertificates.userId,
      facilityId: users.facilityId,
      pdf: partnerCertificates.content,
      filename: partnerCertificates.filename,
    })
    .from(partnerCertificates)
    .innerJoin(users, eq(users.id, partnerCertificates.userId))
    .where(
      "partnerId" in by
        ? eq(partnerCertificates.id, by.partnerId)
        : eq(partnerCertificates.certificateId, by.certificateId),
    )
    .orderBy(desc(partnerCertificates.id))
    .limit(1);
  return row;
}

/** How this installation prints its certificates. */
export interface CertificateLook {
  /** The configured time zone (TIME_ZONE) the dates are shown in. */
  zone: string;
  /** Print the training's legal basis (show-legal-compliance). */
  legalBasis: boolean;
  /** PUBLIC_URL: the QR code and the printed address lead to PUBLIC_URL/v/<code>. */
  publicUrl: string;
}

/**
 * The PDF of a certificate, for its owner and the staff allowed to see that user (else 1011),
 * as `look` says. A certificate a partner course earned is the partner's PDF; `source:
 * "partner"` names a partner certificate by its own id.
 */
export async function certificatePdf(
  db: Db,
  actor: Actor,
  id: number,
  look: CertificateLook,
  source?: "partner",
): Promise<{ pdf: Uint8Array; filename: string }> {
  if (source === "partner") {
    const partner = await partnerPdf(db, { partnerId: id });
    if (!partner) throw notFound("certificate.view");
    assertMay(actor, "certificate.view", { id: partner.userId, facilityId: partner.facilityId });
    return { pdf: partner.pdf, filename: partner.filename };
  }
  const row = await viewCertificate(db, actor, id);
  const partner = await partnerPdf(db, { certificateId: id });
  if (partner) return { pdf: partner.pdf, filename: partner.filename };
  const pdf = await renderCertificate(certificateData(row, look));
  return {
    pdf,
    filename: `Zertifikat-${fileNamePart(row.training)}-${fileNamePart(`${row.name}-${row.surname}`)}.pdf`,
  };
}

/** An issued certificate as its row and its person say, to be printed as `look` says. */
export type IssuedCertificate = Omit<CertificateData, "verificationCode" | "verifyAt" | "zone"> & { code: string };

/** What the PDF of an issued certificate prints. */
export function certificateData(row: IssuedCertificate, look: CertificateLook): CertificateData {
  return {
    name: row.name,
    surname: row.surname,
    training: row.training,
    topic: row.topic,
    facility: row.facility,
    acquiredAt: row.acquiredAt,
    expiresAt: row.expiresAt,
    points: row.points,
    verificationCode: row.code,
    verifyAt: look.publicUrl,
    passive: row.passive,
    legalBasis: look.legalBasis ? row.legalBasis : null,
    zone: look.zone,
    // A revoked certificate stays downloadable for the record, stamped REVOKED with the day:
    // wherever its PDF is made (the download, the person's data export).
    revokedAt: row.revokedAt ?? null,
  };
}

/**
 * A part of a download's file name: names keep their letters (the download's filename* carries
 * them; http/attachment.ts spells an ASCII fallback); only what a file name cannot hold goes.
 */
export function fileNamePart(s: string): string {
  return [
    ...s
      .normalize("NFC")
      .replace(/[\p{C}\\/:*?"<>|]/gu, "")
      .trim()
      .replace(/\s+/g, "-"),
  ]
    .slice(0, 60)
    .join("");
}

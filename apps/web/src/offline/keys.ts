/*
 * What the page and the service worker (src/sw/sw.ts) agree on for the device-kept copy of "my
 * certificates" (issue 30): one cache, the copy under one key, each certificate PDF under its
 * address without the token. Pure: both the window and the worker import it.
 */

/** Cache Storage's cache for the copy and the PDFs opened before. */
export const OFFLINE_CACHE = "carecampus-certificates";
/** The key of the copy of the learner's progress (OfflineCopy, JSON). */
export const COPY_KEY = "/offline/my-certificates.json";
/** The certificate PDF's address (the contract's certificatePdf). */
export const CERTIFICATE_PDF_PATH = "/api/progress/export/certificate";

/** The content's topic and training icons (the contract's staticIcon), kept for offline use. */
export const CONTENT_ICON_PATH = "/api/static/icon/";

/** An address without its token: the same file whatever token asked for it. */
export function withoutToken(address: string): string {
  const url = new URL(address);
  url.searchParams.delete("token");
  return url.href;
}

/** A certificate of the copy: its id and whether it is a partner course's (?source=partner). */
export interface PdfRef {
  id: number;
  partner: boolean;
}

/**
 * The cache key of a certificate's PDF: its address with only `id` and `source`, so the PDF
 * opened with a token yesterday is found with another token, or none, today.
 */
export function certificatePdfKey(ref: PdfRef): string {
  return `${CERTIFICATE_PDF_PATH}?id=${ref.id}${ref.partner ? "&source=partner" : ""}`;
}

/** The certificate a PDF address names, or null when it names none. */
export function certificateOf(url: URL): PdfRef | null {
  if (url.pathname !== CERTIFICATE_PDF_PATH) return null;
  const id = Number(url.searchParams.get("id"));
  if (!Number.isInteger(id) || id <= 0) return null;
  const source = url.searchParams.get("source");
  if (source !== null && source !== "partner") return null;
  return { id, partner: source === "partner" };
}

/** Every certificate the copy lists: its own, the earlier ones, the partner courses'. */
export function certificatesOf(progress: {
  training_progress: { certificate: { id: number } | null; earlier_certificates: { id: number }[] }[];
  partner_certificates: { id: number }[];
}): PdfRef[] {
  const refs: PdfRef[] = [];
  for (const tp of progress.training_progress) {
    if (tp.certificate) refs.push({ id: tp.certificate.id, partner: false });
    for (const earlier of tp.earlier_certificates) refs.push({ id: earlier.id, partner: false });
  }
  for (const pc of progress.partner_certificates) refs.push({ id: pc.id, partner: true });
  return refs;
}

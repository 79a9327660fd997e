import { createContext, useContext } from "react";
import type { PdfRef } from "./keys";

/**
 * Whether a certificate's PDF can be opened here: always online; offline only those kept on the
 * device (offline/copy.ts). The certificate links (ExpiryBadge, CertificateHistory, the partner
 * courses' list) show as plain text where it cannot.
 */
const PdfAvailability = createContext<(ref: PdfRef) => boolean>(() => true);

export const PdfAvailabilityProvider = PdfAvailability.Provider;

export function usePdfAvailable(): (ref: PdfRef) => boolean {
  return useContext(PdfAvailability);
}

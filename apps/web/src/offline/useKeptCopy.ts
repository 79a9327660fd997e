import { useEffect, useState } from "react";
import { keptPdfs, type OfflineCopy, readCopy } from "./copy";

/** The copy kept on this device (offline/copy.ts) and which of its PDFs are there. */
export interface KeptCopyState {
  copy: OfflineCopy;
  pdfs: Set<string>;
}

/** The device's copy, read once `wanted`: undefined while reading, null when there is none. */
export function useKeptCopy(wanted: boolean): KeptCopyState | null | undefined {
  const [kept, setKept] = useState<KeptCopyState | null | undefined>(undefined);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    void (async () => {
      const copy = await readCopy();
      const pdfs = copy ? await keptPdfs(copy) : new Set<string>();
      if (live) setKept(copy ? { copy, pdfs } : null);
    })();
    return () => {
      live = false;
    };
  }, [wanted]);
  return kept;
}

import { useEffect, useState } from "react";

/**
 * For a dialog that is mounted only while it is open: Mantine returns the focus at the end of a
 * dialog's closing transition, which an unmounted dialog never reaches. When such a dialog goes,
 * the focus returns to what had it when the dialog came (read at its first render, before the
 * dialog takes the focus), unless something else has taken it meanwhile.
 */
export function useFocusBack(): void {
  const [from] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null));
  useEffect(
    () => () => {
      setTimeout(() => {
        const now = document.activeElement;
        if (from?.isConnected && (now === null || now === document.body)) from.focus();
      });
    },
    [from],
  );
}

/**
 * The focus after a dialog that opened by itself (no button it could go back to): the screen's
 * title, so that reading and Tab start there and not at the top of the page.
 */
export function focusPageHeading(): void {
  const heading = document.querySelector<HTMLElement>("main h1");
  if (!heading) return;
  if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
  heading.focus({ preventScroll: true });
}

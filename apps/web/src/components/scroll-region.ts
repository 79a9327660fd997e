/**
 * The props of a box that scrolls where its content is wider than its place (a table on a phone):
 * a named region that takes the keyboard focus, so arrow keys scroll it as a finger or mouse does
 * (WCAG 2.1.1; axe's scrollable-region-focusable).
 */
export function scrollRegion(label: string) {
  return { tabIndex: 0, role: "region", "aria-label": label } as const;
}

/**
 * Every colour and variant the app gives its coloured elements (themes.test.ts reads them from
 * the source and fails when one is missing here). The theme gallery (/theme-gallery) renders each
 * of them, and the browser test scans it with axe in all four themes (e2e/tests/themes.spec.ts).
 * `color` undefined is the theme's primary colour; `variant` undefined is the element's default.
 */
export interface GalleryItem {
  component: "Button" | "Badge" | "ActionIcon" | "ThemeIcon" | "Alert" | "Text";
  color?: string;
  variant?: string;
  /** Text: the `c` colour, and whether the text is large (28 px bold). */
  c?: string;
  large?: boolean;
}

const each = (component: GalleryItem["component"], pairs: [string | undefined, string | undefined][]) =>
  pairs.map(([color, variant]) => ({ component, color, variant }));

export const GALLERY: GalleryItem[] = [
  ...each("Button", [
    [undefined, undefined],
    [undefined, "filled"],
    [undefined, "light"],
    [undefined, "subtle"],
    [undefined, "default"],
    ["gray", "subtle"],
    ["red", undefined],
    ["red", "light"],
    ["red", "subtle"],
    ["red", "default"],
    ["var(--mantine-color-red-filled)", "default"],
  ]),
  ...each("Badge", [
    [undefined, "default"],
    [undefined, "light"],
    ["#c2410c", "filled"],
    ["red.9", "filled"],
    ["teal.9", "filled"],
    ["yellow", "light"],
    ["blue", "light"],
    ["grape", "light"],
    ["gray", "light"],
    ["gray", "outline"],
    ["orange", "light"],
    ["red", "light"],
    ["var(--cc-danger-text)", "outline"],
  ]),
  ...each("ActionIcon", [
    [undefined, "filled"],
    [undefined, "light"],
    [undefined, "subtle"],
    [undefined, "default"],
    ["gray", "subtle"],
    ["dark", "subtle"],
  ]),
  ...each("ThemeIcon", [
    [undefined, "light"],
    ["blue", "filled"],
    ["gray", "light"],
    ["orange", "filled"],
    ["red", "filled"],
    ["teal", "filled"],
    ["teal", undefined],
    ["yellow", "light"],
  ]),
  ...each("Alert", [
    ["blue", undefined],
    ["gray", undefined],
    ["grape", "light"],
    ["orange", "light"],
    ["red", undefined],
    ["teal", undefined],
  ]),
  { component: "Text", c: "dimmed" },
  { component: "Text", c: "red" },
  { component: "Text", c: "teal" },
  { component: "Text", c: "var(--mantine-color-text)" },
  { component: "Text", c: "blue", large: true },
  { component: "Text", c: "gray", large: true },
  { component: "Text", c: "red", large: true },
  { component: "Text", c: "teal", large: true },
  { component: "Text", c: "dimmed", large: true },
];

/** The key of an item, for comparing the gallery with what the source uses. */
export function galleryKey(item: GalleryItem): string {
  return [item.component, item.color ?? "", item.variant ?? "", item.c ?? "", item.large ? "large" : ""].join("|");
}

import fs from "node:fs";
import path from "node:path";
import type { Theme } from "@carecampus/contract";
import {
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  defaultVariantColorsResolver,
  type MantineTheme,
  mergeMantineTheme,
} from "@mantine/core";
import { describe, expect, it } from "vitest";
import { GALLERY, type GalleryItem, galleryKey } from "./gallery";
import { readableColours, THEME_DEFINITIONS } from "./themes";

/*
 * Every pair of colours the app's components use, in each of the four themes, computed from the
 * themes' own tokens (Mantine's CSS variables and the app's resolver) with the WCAG 2.1 contrast
 * formula: 4.5:1 for text, 3:1 for icons without text (WCAG 1.4.11). The pairs come from the
 * source itself: every Mantine element that takes a colour (a button, badge, alert, text …) with
 * the colour and variant it is given, so a new colour anywhere is checked here in all four themes.
 * The browser tests scan each screen with axe in one theme; this test and the theme gallery
 * (e2e/tests/themes.spec.ts, every component variant in every theme under axe) stand for the rest.
 */

type Rgba = [number, number, number, number];

const SRC = path.resolve(import.meta.dirname, "..");

/** The CSS variables of a theme as the page sets them (Mantine's, then the app's own). */
function variablesOf(name: Theme): { theme: MantineTheme; vars: Map<string, string> } {
  const { theme: override, colorScheme } = THEME_DEFINITIONS[name];
  const theme = mergeMantineTheme(DEFAULT_THEME, override);
  const vars = new Map<string, string>();
  for (const resolver of [defaultCssVariablesResolver, readableColours]) {
    const r = resolver(theme);
    for (const [k, v] of Object.entries({ ...r.variables, ...r[colorScheme] })) vars.set(k, v);
  }
  vars.set("--mantine-color-white", theme.white);
  vars.set("--mantine-color-black", theme.black);
  return { theme, vars };
}

function parseHex(hex: string): Rgba {
  let h = hex.slice(1);
  if (h.length <= 4) h = [...h].map((c) => c + c).join("");
  const n = (i: number) => Number.parseInt(h.slice(i, i + 2), 16);
  return [n(0), n(2), n(4), h.length === 8 ? n(6) / 255 : 1];
}

/** A CSS colour as the themes write them: hex, rgb(a), color-mix in srgb, named, var(). */
function colour(value: string, vars: Map<string, string>, depth = 0): Rgba {
  const v = value.trim();
  if (depth > 20) throw new Error(`var() loop at ${value}`);
  const variable = /^var\((--[\w-]+)(?:,\s*(.+))?\)$/.exec(v);
  if (variable) {
    const next = vars.get(variable[1] as string) ?? variable[2];
    if (next === undefined) throw new Error(`unknown variable ${variable[1]}`);
    return colour(next, vars, depth + 1);
  }
  if (v.startsWith("#")) return parseHex(v);
  if (v === "transparent") return [0, 0, 0, 0];
  if (v === "white") return [255, 255, 255, 1];
  if (v === "black") return [0, 0, 0, 1];
  const rgb = /^rgba?\(([^)]+)\)$/.exec(v);
  if (rgb) {
    const parts = (rgb[1] as string)
      .split(/[\s,/]+/)
      .filter(Boolean)
      .map(Number);
    return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
  }
  const mix = /^color-mix\(in srgb,\s*(.+?)\s+(\d+(?:\.\d+)?)%,\s*(.+)\)$/.exec(v);
  if (mix) {
    const a = colour(mix[1] as string, vars, depth + 1);
    const b = colour(mix[3] as string, vars, depth + 1);
    const p = Number(mix[2]) / 100;
    return [0, 1, 2, 3].map((i) => (a[i] as number) * p + (b[i] as number) * (1 - p)) as Rgba;
  }
  throw new Error(`cannot read the colour ${value}`);
}

/** `top` painted over the opaque `below`. */
function over(top: Rgba, below: Rgba): Rgba {
  const a = top[3];
  return [0, 1, 2].map((i) => (top[i] as number) * a + (below[i] as number) * (1 - a)).concat(1) as Rgba;
}

function luminance([r, g, b]: Rgba): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: Rgba, b: Rgba): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/* ---------- The pairs, read from the source ---------- */

/** Mantine elements whose colours come from a colour and a variant, with their default variant. */
const COLOURED = {
  Button: { variant: "filled", kind: "text" },
  Badge: { variant: "filled", kind: "text" },
  ActionIcon: { variant: "filled", kind: "icon" },
  ThemeIcon: { variant: "filled", kind: "icon" },
  Alert: { variant: "light", kind: "alert" },
  // components/CopyToClipboard.tsx: a Button, light unless its caller says otherwise.
  CopyToClipboard: { variant: "light", kind: "text" },
} as const;
/** Elements whose text colour is their `c` (or Anchor's `c`): text on the page's surfaces. */
const TEXTS = new Set(["Text", "Title", "Anchor"]);

/**
 * Colours and props that are expressions, by their source text: the values they can take. A new
 * expression fails the test until it is named here, so no colour escapes the check.
 */
const EXPRESSIONS: Record<string, { color?: string; variant?: string; c?: string }[]> = {
  // ExpiryBadge.tsx: the four expiry colours as badges (also the wiki's, help's and planner's).
  "expiryBadgeProps(colour)": [
    { color: "red.9", variant: "filled" },
    { color: "#c2410c", variant: "filled" },
    { color: "yellow", variant: "light" },
    { color: "teal.9", variant: "filled" },
  ],
  NO_CERTIFICATE_COLOUR: [{ color: "var(--cc-danger-text)" }],
  // ImportStatus.tsx: a count's colour (large text), or dimmed.
  color: [{ c: "teal" }, { c: "blue" }, { c: "gray" }, { c: "red" }],
  // NotificationBell.tsx: a notice's icon in its expiry colour (EXPIRY_COLOURS), else blue.
  // Yellow as a light icon, the others filled (its variant is chosen with the colour).
  mantineColour: [
    { color: "red", variant: "filled" },
    { color: "orange", variant: "filled" },
    { color: "yellow", variant: "light" },
    { color: "teal", variant: "filled" },
    { color: "blue", variant: "filled" },
  ],
  // TopicGrid.tsx: a complete topic's count filled in teal 9, else light gray.
  'complete ? "teal.9" : "gray"': [
    { color: "teal.9", variant: "filled" },
    { color: "gray", variant: "light" },
  ],
  // PageBadges.tsx: the wiki tree's plain badges.
  plain: [{ variant: "default" }],
};
/** Spreads that carry no colour (links, refs, form bindings). */
const COLOURLESS_SPREADS = /^(link|button|props|rest|others|form\.|.*\.getInputProps|.*link.*)/i;

/** Colours and spreads the scanner cannot read and EXPRESSIONS does not name. */
const undeclared: string[] = [];

interface Use {
  component: string;
  color?: string;
  variant?: string;
  c?: string;
  large?: boolean;
  where: string;
}

/** The JSX opening tags of `names` in `source`: each tag's attribute text. */
function openingTags(source: string, names: RegExp): { name: string; attrs: string; line: number }[] {
  const found: { name: string; attrs: string; line: number }[] = [];
  const start = new RegExp(`<(${names.source})(?=[\\s>/])`, "g");
  for (let m = start.exec(source); m; m = start.exec(source)) {
    let depth = 0;
    let quote: string | null = null;
    let i = m.index + m[0].length;
    for (; i < source.length; i++) {
      const ch = source[i] as string;
      if (quote) {
        if (ch === quote && source[i - 1] !== "\\") quote = null;
      } else if (ch === '"' || ch === "'" || ch === "`") quote = ch;
      else if (ch === "{") depth++;
      else if (ch === "}") depth--;
      else if (ch === ">" && depth === 0) break;
    }
    found.push({
      name: m[1] as string,
      attrs: source.slice(m.index + m[0].length, i),
      line: source.slice(0, m.index).split("\n").length,
    });
  }
  return found;
}

/** An attribute's values: a string, or the strings an expression can give (named in EXPRESSIONS). */
function attributeValues(attrs: string, name: string, where: string): (string | undefined)[] | undefined {
  return attributeUses(attrs, name, where)?.map((u) => u[name as "color" | "c"]);
}

/** As attributeValues, with the variant an expression names together with its colour. */
function attributeUses(
  attrs: string,
  name: string,
  where: string,
): { color?: string; variant?: string; c?: string }[] | undefined {
  const literal = new RegExp(`(?:^|\\s)${name}="([^"]*)"`).exec(attrs);
  if (literal) return [{ [name]: literal[1] }];
  const at = new RegExp(`(?:^|\\s)${name}=\\{`).exec(attrs);
  if (!at) return undefined;
  let depth = 0;
  let end = at.index + at[0].length - 1;
  for (; end < attrs.length; end++) {
    if (attrs[end] === "{") depth++;
    else if (attrs[end] === "}" && --depth === 0) break;
  }
  const expression = attrs.slice(at.index + at[0].length, end).trim();
  const declared = EXPRESSIONS[expression];
  if (declared) return declared;
  // A condition's own strings (`state === "none" ? …`) are no values.
  const values = expression.includes("?") ? expression.slice(expression.indexOf("?") + 1) : expression;
  const strings = [...values.matchAll(/"([^"]*)"/g)].map((s) => s[1]);
  // What is left besides strings, `undefined` and the ternary's operators.
  const rest = values.replace(/"[^"]*"/g, "").replace(/[:\s]|undefined/g, "");
  const found = [...strings, ...(values.includes("undefined") ? [undefined] : [])].map((v) => ({ [name]: v }));
  if (rest === "") return found;
  const named = EXPRESSIONS[rest] ?? EXPRESSIONS[expression];
  if (!named) {
    undeclared.push(`${where}: ${name}={${expression}}`);
    return [];
  }
  return [...found, ...named];
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const file = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(file);
    // The gallery renders the list of uses (gallery.ts) that the last test compares with these.
    return e.name.endsWith(".tsx") && !e.name.includes(".test.") && e.name !== "ThemeGalleryPage.tsx" ? [file] : [];
  });
}

/** Every coloured element of the app with each colour and variant it can have. */
function usesInSource(): Use[] {
  const uses: Use[] = [];
  const names = new RegExp([...Object.keys(COLOURED), ...TEXTS].join("|"));
  for (const file of sourceFiles(SRC)) {
    const source = fs.readFileSync(file, "utf8");
    for (const tag of openingTags(source, names)) {
      const where = `${path.relative(SRC, file)}:${tag.line} <${tag.name}>`;
      const spreads = [...tag.attrs.matchAll(/\{\.\.\.\s*([^}]+)\}/g)].map((s) => (s[1] as string).trim());
      const spreadUses: { color?: string; variant?: string }[] = [];
      for (const spread of spreads) {
        const key = spread.replace(/\(.*\)/, "(colour)");
        const named = EXPRESSIONS[key];
        if (named) spreadUses.push(...named);
        else if (!COLOURLESS_SPREADS.test(spread)) undeclared.push(`${where}: {...${spread}}`);
      }
      if (TEXTS.has(tag.name)) {
        // Large text (WCAG: 24 px, or 18.7 px bold) needs 3:1.
        const size = Number(/fz=\{(\d+)\}/.exec(tag.attrs)?.[1] ?? 0);
        const large = size >= 24 || (size >= 19 && /fw=\{[6-9]00\}/.test(tag.attrs));
        for (const c of attributeValues(tag.attrs, "c", where) ?? []) {
          // White text lies on a surface of its own (the quiz's pop-up), the same in every theme.
          if (c !== undefined && c !== "white") uses.push({ component: tag.name, c, large, where });
        }
        continue;
      }
      if (spreadUses.length > 0) {
        for (const s of spreadUses) uses.push({ component: tag.name, color: s.color, variant: s.variant, where });
        continue;
      }
      const variants = attributeValues(tag.attrs, "variant", where) ?? [undefined];
      for (const use of attributeUses(tag.attrs, "color", where) ?? [{}]) {
        // A colour named with its variant keeps it; else each variant the element can take.
        for (const variant of use.variant ? [use.variant] : variants)
          uses.push({ component: tag.name, color: use.color, variant, where });
      }
    }
  }
  return uses;
}

/** `c` of Text and Anchor as Mantine resolves it: a theme colour's text variable, a shade, dimmed, a CSS value. */
function textColour(c: string, theme: MantineTheme): string {
  if (c === "dimmed") return "var(--mantine-color-dimmed)";
  if (c === "white" || c === "black") return `var(--mantine-color-${c})`;
  const shade = /^(\w+)\.(\d)$/.exec(c);
  if (shade) return `var(--mantine-color-${shade[1]}-${shade[2]})`;
  if (c in theme.colors) return `var(--mantine-color-${c}-text)`;
  return c;
}

const THEMES = Object.keys(THEME_DEFINITIONS) as Theme[];
const uses = usesInSource();

describe("the themes' colour pairs (WCAG 2.1 AA)", () => {
  it("finds the app's coloured elements in the source", () => {
    // A scanner that found nothing would check nothing.
    expect(uses.filter((u) => u.component === "Button").length).toBeGreaterThan(50);
    expect(uses.some((u) => u.component === "Badge" && u.color === "#c2410c")).toBe(true);
    expect(uses.some((u) => u.c === "dimmed")).toBe(true);
  });

  it("knows the values of every colour given by an expression (EXPRESSIONS, COLOURLESS_SPREADS)", () => {
    expect(undeclared).toEqual([]);
  });

  for (const name of THEMES) {
    it(`${name}: every pair reads at 4.5:1 (text) or 3:1 (icons)`, () => {
      const { theme, vars } = variablesOf(name);
      const body = colour("var(--mantine-color-body)", vars);
      // Cards, menus and dialogs lie on the body colour; default buttons and table headers on 'default'.
      const surfaces = { body, default: over(colour("var(--mantine-color-default)", vars), body) };
      const failures: string[] = [];
      const check = (what: string, fg: string, bg: Rgba, min: number) => {
        const ratio = contrast(over(colour(fg, vars), bg), bg);
        if (ratio < min) failures.push(`${what}: ${ratio.toFixed(2)}:1 < ${min}:1`);
      };
      const seen = new Set<string>();
      for (const use of uses) {
        const key = `${use.component} ${use.color} ${use.variant} ${use.c} ${use.large}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const label = `${use.where} color=${use.color ?? "primary"} variant=${use.variant ?? "default"}${use.c ? ` c=${use.c}` : ""}`;
        if (use.c !== undefined) {
          for (const [surface, bg] of Object.entries(surfaces))
            check(`${label} on ${surface}`, textColour(use.c, theme), bg, use.large ? 3 : 4.5);
          continue;
        }
        const spec = COLOURED[use.component as keyof typeof COLOURED];
        const variant = use.variant ?? spec.variant;
        const resolved = defaultVariantColorsResolver({
          color: use.color ?? theme.primaryColor,
          theme,
          variant,
        });
        const background = over(colour(resolved.background, vars), body);
        if (spec.kind === "alert") {
          // The title and the message in the text colour (App.tsx: the alert's own shade read below
          // 4.5:1 on its tint), dimmed hints in the dimmed one.
          check(`${label} title and message`, "var(--mantine-color-text)", background, 4.5);
          check(`${label} dimmed text`, "var(--mantine-color-dimmed)", background, 4.5);
          continue;
        }
        check(label, resolved.color, background, spec.kind === "icon" ? 3 : 4.5);
      }
      // The page's own pairs: body text, dimmed hints, links, errors, the danger red.
      for (const [surface, bg] of Object.entries(surfaces)) {
        for (const fg of [
          "--mantine-color-text",
          "--mantine-color-dimmed",
          "--mantine-color-anchor",
          "--mantine-color-error",
          "--cc-danger-text",
        ])
          check(`${fg} on ${surface}`, `var(${fg})`, bg, 4.5);
      }
      // A link in an alert: the wiki editor's orange one.
      check(
        "link in an orange alert (wiki editor)",
        "var(--mantine-color-anchor)",
        over(colour("var(--mantine-color-orange-light)", vars), body),
        4.5,
      );
      // The quiz's marks (components/quiz/quiz.module.css): right and wrong on their light cards.
      const [right, wrong] =
        THEME_DEFINITIONS[name].colorScheme === "dark"
          ? ["var(--mantine-color-teal-4)", "var(--mantine-color-orange-4)"]
          : ["#0b5e47", "#a33500"];
      check("quiz: right on the page", right, body, 4.5);
      check("quiz: wrong on the page", wrong, body, 4.5);
      check("quiz: right on its card", right, over(colour("var(--mantine-color-teal-light)", vars), body), 4.5);
      check("quiz: wrong on its card", wrong, over(colour("var(--mantine-color-orange-light)", vars), body), 4.5);
      // A chosen answer card: text on the primary colour's light tone.
      check(
        "quiz: chosen answer",
        "var(--mantine-color-text)",
        over(colour("var(--mantine-primary-color-light)", vars), body),
        4.5,
      );
      expect(failures).toEqual([]);
    });
  }

  it("the theme gallery renders every colour and variant the app uses", () => {
    // As rendered: CopyToClipboard is a Button, Title and Anchor are Text, a default variant is named.
    const key = (u: Use | GalleryItem) => {
      const component = u.component === "CopyToClipboard" ? "Button" : TEXTS.has(u.component) ? "Text" : u.component;
      const spec = COLOURED[u.component as keyof typeof COLOURED];
      return galleryKey({
        component: component as GalleryItem["component"],
        ...(u.color === undefined ? {} : { color: u.color }),
        ...(component === "Text" ? {} : { variant: u.variant ?? spec?.variant }),
        ...(u.c === undefined ? {} : { c: u.c }),
        ...(u.large ? { large: true } : {}),
      });
    };
    const rendered = new Set(GALLERY.map(key));
    const missing = [...new Set(uses.map(key))].filter((k) => !rendered.has(k));
    expect(missing, "add these to theme/gallery.ts").toEqual([]);
  });

  it("computes WCAG contrast as the standard's examples give it", () => {
    expect(contrast([0, 0, 0, 1], [255, 255, 255, 1])).toBeCloseTo(21, 5);
    expect(contrast([118, 118, 118, 1], [255, 255, 255, 1])).toBeCloseTo(4.54, 2);
    expect(() => colour("var(--nowhere)", new Map())).toThrow();
  });
});

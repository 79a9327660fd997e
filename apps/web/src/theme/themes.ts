import type { Theme } from "@carecampus/contract";
import {
  type CSSVariablesResolver,
  createTheme,
  type MantineColorsTuple,
  type MantineThemeOverride,
} from "@mantine/core";

const teal: MantineColorsTuple = [
  "#e6fcf9",
  "#c3f4ec",
  "#99eadf",
  "#5fdccc",
  "#2dc9b6",
  "#14b8a6",
  "#0f9488",
  "#0f766e",
  "#115e59",
  "#134e4a",
];
const ocean: MantineColorsTuple = [
  "#e7f3ff",
  "#d0e4fb",
  "#a2c6f1",
  "#70a6e8",
  "#478ae0",
  "#2e79dc",
  "#1f70db",
  "#105ec3",
  "#0053af",
  "#00489b",
];

const font = "system-ui, -apple-system, 'Segoe UI', Roboto, 'Noto Sans', 'Helvetica Neue', Arial, sans-serif";

interface ThemeDefinition {
  theme: MantineThemeOverride;
  colorScheme: "light" | "dark";
}

/**
 * Filled controls and links use shade 7 in light schemes (white on teal 7: 5.5:1; on Mantine's
 * default shade 6 it is 3.7:1, below WCAG AA) and shade 8 in the dark one.
 */
const primaryShade = { light: 7, dark: 8 } as const;

/**
 * The visual themes; 'carely' is the default (spec §1). Each respects a device set to reduce
 * motion: dialogs, menus and collapsing panels then appear without animation.
 */
export const THEME_DEFINITIONS: Record<Theme, ThemeDefinition> = {
  carely: {
    colorScheme: "light",
    theme: createTheme({
      primaryColor: "carely",
      primaryShade,
      colors: { carely: teal },
      fontFamily: font,
      defaultRadius: "md",
    }),
  },
  dark: {
    colorScheme: "dark",
    theme: createTheme({
      primaryColor: "carely",
      primaryShade,
      colors: { carely: teal },
      fontFamily: font,
      defaultRadius: "md",
    }),
  },
  contrast: {
    colorScheme: "light",
    theme: createTheme({
      primaryColor: "dark",
      primaryShade: 9,
      fontFamily: font,
      defaultRadius: "xs",
      black: "#000000",
      focusRing: "always",
      other: { highContrast: true },
    }),
  },
  ocean: {
    colorScheme: "light",
    theme: createTheme({
      primaryColor: "ocean",
      primaryShade,
      colors: { ocean },
      fontFamily: font,
      defaultRadius: "lg",
    }),
  },
};

/**
 * Mantine's dimmed text (gray 6 on white, 3.3:1) is below WCAG AA's 4.5:1; gray 7 reads at 8:1.
 * In the dark scheme dark 2 on dark 7 reads at about 4.1:1; dark 1 at 8:1.
 * Hints, counts and dates in dimmed text are read by staff on small phones in bright rooms.
 * Every pair of colours a component uses is checked in each theme by themes.test.ts.
 */
export const readableColours: CSSVariablesResolver = () => ({
  variables: {},
  // Mantine's filled red (red 6, white text at 3.8:1) and red text are below AA on light
  // backgrounds: red 8 reads at 4.6:1 with white, red 9 at 5.4:1 (delete buttons, error texts).
  light: {
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--cc-danger-text": "var(--mantine-color-red-9)",
    "--mantine-color-red-filled": "var(--mantine-color-red-8)",
    "--mantine-color-red-filled-hover": "var(--mantine-color-red-9)",
    "--mantine-color-red-text": "var(--mantine-color-red-9)",
    // Teal text (an import without errors): teal 6 reads at 3.1:1, teal 9 at 5:1.
    "--mantine-color-teal-text": "var(--mantine-color-teal-9)",
    // Orange 9 on orange 1 (a light alert's title, a light badge) reads at 3.6:1; darkened by
    // 30 % it reads at 6.7:1.
    "--mantine-color-orange-light-color": "color-mix(in srgb, var(--mantine-color-orange-9) 70%, black)",
    // The same for yellow (2.7:1: a certificate that expires within 30 days, its notice) and teal
    // (4.3:1: a light alert's title): 5.1:1 and 6.6:1 darkened.
    "--mantine-color-yellow-light-color": "color-mix(in srgb, var(--mantine-color-yellow-9) 70%, black)",
    "--mantine-color-teal-light-color": "color-mix(in srgb, var(--mantine-color-teal-9) 70%, black)",
    // A form field's error message (red 6: 3.3:1).
    "--mantine-color-error": "var(--mantine-color-red-9)",
  },
  dark: {
    "--mantine-color-dimmed": "var(--mantine-color-dark-1)",
    "--cc-danger-text": "var(--mantine-color-red-4)",
    // A form field's error message (red 8 on dark 7: 3.4:1; red 4: 6:1).
    "--mantine-color-error": "var(--mantine-color-red-4)",
  },
});

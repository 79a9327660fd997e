import type { Theme } from "@carecampus/contract";
import { createTheme, type MantineColorsTuple, type MantineThemeOverride } from "@mantine/core";

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

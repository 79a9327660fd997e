import { type CSSVariablesResolver, MantineProvider, mergeThemeOverrides } from "@mantine/core";
import { useEffect, useMemo, useRef } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import i18n, { pickLanguage } from "../i18n";
import { preferredLanguage, preferredTheme, useSessionState } from "../session/store";
import { THEME_DEFINITIONS } from "../theme/themes";
import { router } from "./routes";
import { settings } from "./settings";
import { Toasts } from "./Toasts";

/**
 * Mantine's dimmed text (gray 6 on white, 3.3:1) is below WCAG AA's 4.5:1; gray 7 reads at 8:1.
 * In the dark scheme dark 2 on dark 7 reads at about 4.1:1; dark 1 at 8:1.
 * Hints, counts and dates in dimmed text are read by staff on small phones in bright rooms.
 */
const readableDimmed: CSSVariablesResolver = () => ({
  variables: {},
  // Mantine's filled red (red 6, white text at 3.8:1) and red text are below AA on light
  // backgrounds: red 8 reads at 4.6:1 with white, red 9 at 5.4:1 (delete buttons, error texts).
  light: {
    "--mantine-color-dimmed": "var(--mantine-color-gray-7)",
    "--cc-danger-text": "var(--mantine-color-red-9)",
    "--mantine-color-red-filled": "var(--mantine-color-red-8)",
    "--mantine-color-red-filled-hover": "var(--mantine-color-red-9)",
    "--mantine-color-red-text": "var(--mantine-color-red-9)",
    // Orange 9 on orange 1 (a light alert's title, a light badge) reads at 3.6:1; darkened by
    // 30 % it reads at 6.7:1.
    "--mantine-color-orange-light-color": "color-mix(in srgb, var(--mantine-color-orange-9) 70%, black)",
  },
  dark: { "--mantine-color-dimmed": "var(--mantine-color-dark-1)", "--cc-danger-text": "var(--mantine-color-red-4)" },
});

export function App() {
  const state = useSessionState();
  const themeName = preferredTheme(state) ?? settings.theme;
  const language = pickLanguage(preferredLanguage(state));
  // The texts shown: those of `language` once its locale has loaded (changeLanguage below).
  const { t } = useTranslation();
  const { theme: base, colorScheme } = THEME_DEFINITIONS[themeName] ?? THEME_DEFINITIONS.carely;
  // What every theme shares: motion only for those who did not ask their system for less; every
  // dialog's and drawer's close button named, and every spinner announced as loading, in the
  // user's language.
  const theme = useMemo(() => {
    const closeButtonProps = { "aria-label": t("common.close") };
    return mergeThemeOverrides(base, {
      respectReducedMotion: true,
      components: {
        Modal: { defaultProps: { closeButtonProps } },
        Drawer: { defaultProps: { closeButtonProps } },
        Loader: { defaultProps: { role: "status", "aria-label": t("common.loading") } },
      },
    });
  }, [base, t]);

  // The theme's name on the document, as its language is: for styles and for tests to see it applied.
  useEffect(() => {
    document.documentElement.dataset.theme = themeName;
  }, [themeName]);

  // Another tab's or the profile's language change: its locale loads, then the texts switch.
  // i18next starts in the language (main.tsx); every later change is asked for, even back to
  // the language still shown while another one is loading.
  const started = useRef(false);
  useEffect(() => {
    if (started.current || i18n.language !== language) void i18n.changeLanguage(language);
    started.current = true;
  }, [language]);

  return (
    <I18nextProvider i18n={i18n}>
      <MantineProvider theme={theme} forceColorScheme={colorScheme} cssVariablesResolver={readableDimmed}>
        <Toasts />
        {/* The query cache and the modals manager come with the shell (Shell.tsx): not on the login. */}
        <RouterProvider router={router} />
      </MantineProvider>
    </I18nextProvider>
  );
}

import { MantineProvider, mergeThemeOverrides } from "@mantine/core";
import { useEffect, useMemo, useRef } from "react";
import { I18nextProvider, useTranslation } from "react-i18next";
import { RouterProvider } from "react-router";
import i18n, { pickLanguage } from "../i18n";
import { preferredLanguage, preferredTheme, useSessionState } from "../session/store";
import dates from "../theme/dates.module.css";
import { readableColours, THEME_DEFINITIONS } from "../theme/themes";
import { router } from "./routes";
import { settings } from "./settings";
import { Toasts } from "./Toasts";

export function App() {
  const state = useSessionState();
  const themeName = preferredTheme(state) ?? settings.theme;
  const language = pickLanguage(preferredLanguage(state));
  // The texts shown: those of `language` once its locale has loaded (changeLanguage below).
  const { t } = useTranslation();
  const { theme: base, colorScheme } = THEME_DEFINITIONS[themeName] ?? THEME_DEFINITIONS.carely;
  // What every theme shares: motion only for those who did not ask their system for less; every
  // dialog's and drawer's close button named, every spinner announced as loading, and the date
  // pickers' and paginations' arrows named, in the user's language.
  const theme = useMemo(() => {
    const closeButtonProps = { "aria-label": t("common.close") };
    // A date picker's month and year controls named, its days in readable colours, and no days of
    // the months before and after: they read faintly and were picked by accident.
    const datePicker = {
      defaultProps: {
        hideOutsideDates: true,
        ariaLabels: {
          previousMonth: t("dates.previousMonth"),
          nextMonth: t("dates.nextMonth"),
          previousYear: t("dates.previousYear"),
          nextYear: t("dates.nextYear"),
          previousDecade: t("dates.previousDecade"),
          nextDecade: t("dates.nextDecade"),
        },
      },
      classNames: { day: dates.day },
    };
    // A select's list scrolls itself rather than a scroll area inside it: the list is the
    // combobox's popup, which the arrow keys move through from the field (aria-activedescendant),
    // and is then not a scrolling region no key reaches (axe's scrollable-region-focusable).
    const selectList = {
      defaultProps: { withScrollArea: false },
      styles: { options: { maxHeight: 220, overflowY: "auto" as const } },
    };
    return mergeThemeOverrides(base, {
      respectReducedMotion: true,
      components: {
        Modal: { defaultProps: { closeButtonProps } },
        // An alert's title in the text colour: Mantine colours it with the alert's shade, which on
        // a light alert's tinted background stays below 4.5:1 (e.g. the attendance's teal title).
        // The icon and edge keep the colour.
        Alert: { styles: { title: { color: "var(--mantine-color-text)" } } },
        Drawer: { defaultProps: { closeButtonProps } },
        Loader: { defaultProps: { role: "status", "aria-label": t("common.loading") } },
        // Picking a date (or closing the month) puts the focus back on the field, not on the page.
        DatePickerInput: {
          ...datePicker,
          defaultProps: { ...datePicker.defaultProps, popoverProps: { returnFocus: true } },
        },
        DatePicker: datePicker,
        Select: selectList,
        MultiSelect: selectList,
        // The arrows of a pagination named (the pages are their numbers).
        Pagination: {
          defaultProps: {
            getControlProps: (control: "first" | "previous" | "next" | "last") => ({
              "aria-label": t(`pagination.${control}`),
            }),
          },
        },
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
      <MantineProvider theme={theme} forceColorScheme={colorScheme} cssVariablesResolver={readableColours}>
        <Toasts />
        {/* The query cache and the modals manager come with the shell (Shell.tsx): not on the login. */}
        <RouterProvider router={router} />
      </MantineProvider>
    </I18nextProvider>
  );
}

import { readSettings, SETTING_NAMES, type SettingName, type Settings } from "@carecampus/contract";

/**
 * Reads the spec §9 settings from the <meta> tags the server wrote into index.html (without zod:
 * this runs on the login); a missing tag, as under the Vite dev server, is the default.
 */
function fromPage(): Settings {
  const raw: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const value = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
    if (value !== undefined) raw[name] = value;
  }
  return readSettings(raw);
}

export const settings: Settings = fromPage();

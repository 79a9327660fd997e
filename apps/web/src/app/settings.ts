import { parseSettings, SETTING_NAMES, type SettingName, type Settings } from "@carecampus/contract";

/** Reads the spec §9 settings from the <meta> tags the server wrote into index.html. */
function readSettings(): Settings {
  const raw: Partial<Record<SettingName, string>> = {};
  for (const name of SETTING_NAMES) {
    const value = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
    if (value !== undefined) raw[name] = value;
  }
  try {
    return parseSettings(raw);
  } catch {
    return parseSettings({});
  }
}

export const settings: Settings = readSettings();

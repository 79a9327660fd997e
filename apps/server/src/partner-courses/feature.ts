import type { Config } from "../config";

/**
 * External courses are on with the show-external-trainings setting and a configured partner
 * (EXTERNAL_COURSES_URL); with either missing nothing external is shown (the page's setting
 * says false) and the partner is never called.
 */
export function partnerCoursesOn(config: Pick<Config, "settings" | "partner">): boolean {
  return config.settings["show-external-trainings"] && config.partner !== null;
}

import type { TFunction } from "i18next";

/** A questionnaire's name as the learner reads it: numeric names read 'Questionnaire 2'. */
export function questionnaireLabel(t: TFunction, name: string): string {
  return /^\d+$/.test(name) ? t("questionnaires.name", { name }) : name;
}

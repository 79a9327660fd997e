import { useTranslation } from "react-i18next";
import { FacilityScopeSelect } from "../../components/FacilityScope";
import classes from "./wiki.module.css";

/** Super-Admins and superusers see the common pages, and one facility's beside them when they choose it. */
export function FacilityPicker() {
  const { t } = useTranslation();
  return (
    <FacilityScopeSelect
      label={t("wiki.facility")}
      none={t("wiki.commonOnly")}
      className={classes.noPrint}
      testId="wiki-facility"
    />
  );
}

import { seesAllFacilities } from "@carecampus/contract";
import { Select } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { useFacilities } from "../../queries/admin";
import { useRequiredSession } from "../../session/store";
import { useWikiFacility } from "./scope";
import classes from "./wiki.module.css";

/** Super-Admins and superusers see the common pages, and one facility's beside them when they choose it. */
export function FacilityPicker() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const all = seesAllFacilities(user.roles);
  const facilities = useFacilities(all);
  const [facility, setFacility] = useWikiFacility();
  if (!all) return null;
  return (
    <Select
      label={t("wiki.facility")}
      data={[
        { value: "", label: t("wiki.commonOnly") },
        ...(facilities.data ?? []).map((f) => ({ value: String(f.id), label: f.name })),
      ]}
      value={facility ? String(facility) : ""}
      onChange={(v) => setFacility(v ? Number(v) : null)}
      allowDeselect={false}
      maw={360}
      mb="md"
      className={classes.noPrint}
      data-testid="wiki-facility"
    />
  );
}

import { seesAllFacilities } from "@carecampus/contract";
import { Select } from "@mantine/core";
import { useSearchParams } from "react-router";
import { useFacilities } from "../queries/admin";
import { useRequiredSession } from "../session/store";

/**
 * ?facility= : the one facility a Super-Admin or superuser narrows a view to (the server's
 * `?facility=` scope of help requests and the wiki). Kept in the address, so it survives
 * opening a detail and coming back.
 */
export function useFacilityParam(): [number | null, (id: number | null) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get("facility"));
  const facility = Number.isInteger(raw) && raw > 0 ? raw : null;
  const set = (id: number | null) =>
    setParams(
      (p) => {
        if (id === null) p.delete("facility");
        else p.set("facility", String(id));
        return p;
      },
      { replace: true },
    );
  return [facility, set];
}

/**
 * The facility choice of those who see every facility (nothing for everyone else): `none` is
 * the label of "no facility chosen" (all of them, or the common part only).
 */
export function FacilityScopeSelect({
  label,
  none,
  className,
  testId,
}: {
  label: string;
  none: string;
  className?: string;
  testId?: string;
}) {
  const { user } = useRequiredSession();
  const all = seesAllFacilities(user.roles);
  const facilities = useFacilities(all);
  const [facility, setFacility] = useFacilityParam();
  if (!all) return null;
  return (
    <Select
      label={label}
      data={[
        { value: "", label: none },
        ...(facilities.data ?? []).map((f) => ({ value: String(f.id), label: f.name })),
      ]}
      value={facility ? String(facility) : ""}
      onChange={(v) => setFacility(v ? Number(v) : null)}
      allowDeselect={false}
      maw={360}
      mb="md"
      className={className}
      data-testid={testId}
    />
  );
}

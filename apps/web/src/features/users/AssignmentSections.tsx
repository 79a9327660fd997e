import { api, grantableRoles, type NamedItem, seesAllFacilities, toggleRole } from "@carecampus/contract";
import { Card, Chip, Group, MultiSelect, Select, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { call } from "../../api/client";
import { useFacilities } from "../../queries/admin";
import { useRequiredSession } from "../../session/store";
import { AddNamedItem } from "./AddNamedItem";
import { useActivities, useFacilityExtras, useQualifications, userKeys } from "./queries";
import type { useUserForm } from "./useUserForm";

type State = ReturnType<typeof useUserForm>;

const options = (items: NamedItem[] | undefined) => (items ?? []).map((i) => ({ value: String(i.id), label: i.name }));

/** The roles the caller may grant, and the facility those roles need (chosen, or added, by who sees every facility). */
export function RolesSection({
  form,
  values,
  roles,
  facilityRule,
}: Pick<State, "form" | "values" | "roles" | "facilityRule">) {
  const { t } = useTranslation();
  const { user: me } = useRequiredSession();
  const allFacilities = seesAllFacilities(me.roles);
  const facilities = useFacilities(true);

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="md">
        {t("editUser.rolesTitle")}
      </Title>
      <Group gap="xs" mb="md">
        {grantableRoles(me.roles).map((r) => (
          <Chip key={r} checked={roles.includes(r)} onChange={() => form.setFieldValue("roles", toggleRole(roles, r))}>
            {t(`roles.${r}`)}
          </Chip>
        ))}
      </Group>
      {facilityRule === "conflict" && (
        <Text c="red" size="sm">
          {t("editUser.roleConflict")}
        </Text>
      )}
      {facilityRule === "required" &&
        (allFacilities ? (
          <Stack gap="xs">
            <Select
              label={t("editUser.facility")}
              data={options(facilities.data)}
              value={values.facility === null ? null : String(values.facility)}
              onChange={(v) => form.setFieldValue("facility", v === null ? null : Number(v))}
              onBlur={() => form.validateField("facility")}
              error={form.errors.facility}
              searchable
              required
              maw={420}
            />
            <AddNamedItem
              label={t("editUser.newFacility")}
              buttonLabel={t("editUser.addFacility")}
              create={(name) => call(api.facilityCreate, { body: { name } })}
              list={userKeys.facilities}
              onAdded={(id) => form.setFieldValue("facility", id)}
              addedText={t("success.facilityAdded")}
            />
          </Stack>
        ) : (
          <Text size="sm">
            <b>{t("editUser.facility")}:</b> {me.facility?.name ?? "–"}
          </Text>
        ))}
    </Card>
  );
}

/** Activities and qualifications, and the additional qualifications the user's facility keeps. */
export function QualificationsSection({ form, values, facilityRule }: Pick<State, "form" | "values" | "facilityRule">) {
  const { t } = useTranslation();
  const qualifications = useQualifications();
  const activities = useActivities();
  const facility = values.facility;
  const facilityExtras = useFacilityExtras(facility);

  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="md">
        {t("editUser.qualificationsTitle")}
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <MultiSelect
          label={t("editUser.activities")}
          data={options(activities.data)}
          {...form.getInputProps("activities")}
          searchable
          clearable
        />
        <MultiSelect
          label={t("editUser.qualifications")}
          data={options(qualifications.data)}
          {...form.getInputProps("qualifications")}
          searchable
          clearable
        />
      </SimpleGrid>
      {facilityRule === "required" && facility !== null && (
        <Stack gap="xs" mt="md">
          <MultiSelect
            label={t("editUser.additionalQualifications")}
            description={t("editUser.additionalQualificationsHint")}
            data={options(facilityExtras.data)}
            {...form.getInputProps("extras")}
            searchable
            clearable
            nothingFoundMessage={t("editUser.noAdditionalQualifications")}
            data-testid="additional-qualifications"
          />
          <AddNamedItem
            label={t("editUser.newAdditionalQualification")}
            buttonLabel={t("editUser.addAdditionalQualification")}
            create={(name) => call(api.externalCreate, { body: { name, facility } })}
            list={["users", "extras"]}
            onAdded={(id) => form.setFieldValue("extras", [...form.getValues().extras, String(id)])}
            addedText={t("success.qualificationAdded")}
          />
        </Stack>
      )}
    </Card>
  );
}

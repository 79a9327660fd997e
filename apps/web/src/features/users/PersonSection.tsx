import { passwordProblems } from "@carecampus/contract";
import {
  Button,
  Card,
  Group,
  List,
  PasswordInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { IconWand } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { settings } from "../../app/settings";
import { GeneratedPassword } from "./AccessData";
import type { useUserForm } from "./useUserForm";

type State = ReturnType<typeof useUserForm>;

/** Salutation, names, login, e-mail and password (typed or generated, with every rule it breaks). */
export function PersonSection({
  form,
  values,
  creating,
  password,
}: Pick<State, "form" | "values" | "creating" | "password">) {
  const { t } = useTranslation();
  const passwordList = values.password === "" ? [] : passwordProblems(values.password);
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="md">
        {t("editUser.person")}
      </Title>
      <Stack gap="sm">
        {settings["show-salutation"] && (
          <div>
            <Text size="sm" fw={500} mb={4}>
              {t("editUser.salutation")}
            </Text>
            <SegmentedControl
              {...form.getInputProps("salutation")}
              data={[
                { value: "Ms", label: t("editUser.ms") },
                { value: "Mr", label: t("editUser.mr") },
                { value: "-", label: "–" },
              ]}
            />
          </div>
        )}
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t("editUser.name")} {...form.getInputProps("name")} required />
          <TextInput label={t("editUser.surname")} {...form.getInputProps("surname")} required />
          <TextInput label={t("editUser.login")} {...form.getInputProps("login")} autoCapitalize="none" required />
          <TextInput label={t("editUser.email")} type="email" {...form.getInputProps("email")} />
        </SimpleGrid>
        <Group align="flex-end" gap="xs" wrap="nowrap">
          <PasswordInput
            style={{ flex: 1 }}
            label={creating ? t("editUser.password") : t("editUser.newPassword")}
            description={creating ? undefined : t("editUser.passwordKeep")}
            {...form.getInputProps("password")}
            // The list below names every rule broken; the field itself only says that one is.
            error={form.errors.password ? true : undefined}
            autoComplete="new-password"
            required={creating}
            visible={password.visible}
            onVisibilityChange={password.setVisible}
          />
          <Button variant="light" leftSection={<IconWand size={16} />} onClick={password.generate}>
            {t("editUser.generate")}
          </Button>
        </Group>
        {password.generated !== null && values.password === password.generated && (
          <GeneratedPassword password={password.generated} />
        )}
        {passwordList.length > 0 && (
          <List size="xs" c="dimmed" spacing={2} data-testid="password-problems">
            {passwordList.map((p) => (
              <List.Item key={p}>{t(`password.${p}`)}</List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Card>
  );
}

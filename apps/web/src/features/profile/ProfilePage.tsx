import { AVATARS, api, can, type Language, type PreferencesPatch, THEMES, type Theme } from "@carecampus/contract";
import {
  Card,
  Group,
  Paper,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
  UnstyledButton,
} from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../../api/client";
import { PageHeader } from "../../components/PageHeader";
import { UserAvatar } from "../../components/UserAvatar";
import { configuredLanguages } from "../../i18n";
import { learningKeys } from "../../queries/learning";
import { sessionStore, useRequiredSession } from "../../session/store";
import { ContentLanguageCard } from "./ContentLanguageCard";
import { MyProgress } from "./MyProgress";
import classes from "./ProfilePage.module.css";

const LANGUAGE_NAMES: Record<Language, string> = {
  de: "Deutsch",
  en: "English",
  fr: "Français",
  es: "Español",
  br: "Português (Brasil)",
};

export default function ProfilePage() {
  const { t, i18n } = useTranslation();
  const { user } = useRequiredSession();
  const queryClient = useQueryClient();

  const save = async (patch: PreferencesPatch) => {
    const prefs = await call(api.preferencesUpdate, { params: { id: user.id }, body: patch });
    sessionStore.setUser({ ...user, ...prefs });
    if (patch.property === "language") {
      await i18n.changeLanguage(patch.value);
      // The token's language claim follows (spec §7 POST /auth/refresh?lang).
      const { token } = await call(api.refresh, { query: { lang: patch.value } });
      sessionStore.setToken(token);
    }
    // The learning screens name topics, trainings and questionnaires in the content language.
    if (patch.property === "language" || patch.property === "content_language") {
      void queryClient.invalidateQueries({ queryKey: learningKeys.all });
    }
    // In the language just chosen (t still speaks the one this render had).
    showSuccess(i18n.t("success.profileChanged"));
  };

  return (
    <>
      <PageHeader title={t("profile.title")} />
      <Stack gap="lg">
        <Paper withBorder p="md">
          <Group gap="md" wrap="nowrap">
            <UserAvatar avatar={user.avatar} size={64} alt="" />
            <div>
              <Text fw={600} size="lg">
                {user.name} {user.surname}
              </Text>
              <Text c="dimmed" size="sm">
                {user.roles.map((r) => t(`roles.${r}`)).join(", ")}
                {user.facility ? ` · ${user.facility.name}` : ""}
              </Text>
            </div>
          </Group>
        </Paper>

        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t("profile.avatar")}
          </Title>
          <SimpleGrid cols={{ base: 5, sm: 10 }} spacing="xs">
            {AVATARS.map((a) => (
              <UnstyledButton
                key={a}
                className={classes.avatarChoice}
                data-selected={a === user.avatar || undefined}
                onClick={() => a !== user.avatar && void save({ property: "avatar", value: a })}
                aria-label={t(`avatars.${a}`)}
                aria-pressed={a === user.avatar}
              >
                <UserAvatar avatar={a} size={52} alt="" mx="auto" />
              </UnstyledButton>
            ))}
          </SimpleGrid>
        </Card>

        {configuredLanguages.length > 1 && (
          <Card withBorder>
            <Title order={2} size="h4" mb="sm">
              {t("profile.language")}
            </Title>
            <Select
              aria-label={t("profile.language")}
              value={user.language}
              allowDeselect={false}
              data={configuredLanguages.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))}
              onChange={(v) => v && v !== user.language && void save({ property: "language", value: v as Language })}
              maw={320}
              data-testid="language-select"
            />
          </Card>
        )}

        {can(user.roles, "learning.take") && (
          <ContentLanguageCard
            value={user.content_language}
            onChange={(lang) => void save({ property: "content_language", value: lang })}
          />
        )}

        <Card withBorder>
          <Title order={2} size="h4" mb="sm">
            {t("profile.theme")}
          </Title>
          <SegmentedControl
            value={user.theme}
            onChange={(v) => void save({ property: "theme", value: v as Theme })}
            data={THEMES.map((th) => ({ value: th, label: t(`themes.${th}`) }))}
            fullWidth
            orientation="horizontal"
            className={classes.themes}
            aria-label={t("profile.theme")}
          />
        </Card>
        {/* Employees and superusers (spec §2): whoever takes trainings. */}
        {can(user.roles, "learning.take") && <MyProgress userId={user.id} />}
      </Stack>
    </>
  );
}

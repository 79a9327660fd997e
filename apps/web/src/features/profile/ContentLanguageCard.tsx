import { SOURCE_LANGUAGE } from "@carecampus/contract";
import { Card, NativeSelect, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { languageName } from "../../components/languageName";
import { useContentLanguages } from "../../queries/content-languages";

/**
 * "Sprache der Schulungsinhalte" (issue 31): the language questions and explanations come in,
 * where a reviewed translation is published — also one the interface does not speak (tr, pl, ar);
 * else German, the binding original. Empty: the interface language.
 */
export function ContentLanguageCard({ value, onChange }: { value: string | null; onChange: (lang: string) => void }) {
  const { t, i18n } = useTranslation();
  const { data } = useContentLanguages();
  // Only where trainings come in more than German.
  if (!data || data.languages.length < 2) return null;
  return (
    <Card withBorder>
      <Title order={2} size="h4" mb="xs">
        {t("profile.contentLanguage.title")}
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        {t("profile.contentLanguage.help")}
      </Text>
      <NativeSelect
        aria-label={t("profile.contentLanguage.title")}
        value={value ?? ""}
        onChange={(e) => onChange(e.currentTarget.value)}
        data={[
          { value: "", label: t("profile.contentLanguage.interface") },
          ...data.languages.map((l) => ({
            value: l,
            label:
              l === SOURCE_LANGUAGE
                ? t("profile.contentLanguage.original", { name: languageName(l, i18n.language, true) })
                : languageName(l, i18n.language, true),
          })),
        ]}
        maw={360}
        data-testid="content-language-select"
      />
    </Card>
  );
}

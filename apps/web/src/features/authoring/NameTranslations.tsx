import { api, CONTENT_LIMITS, type NameTranslations as NameItem, type TranslationStatus } from "@carecampus/contract";
import { Badge, Button, Group, NativeSelect, Paper, Skeleton, Stack, Text, TextInput, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { useTranslation } from "react-i18next";
import { call, showSuccess } from "../../api/client";
import { inLanguage } from "../../components/ContentName";
import { languageName } from "../../components/languageName";
import { statusChoices } from "../../components/TranslationStatus";

/** Under ["authoring", "translations"]: a file's import refreshes these too. */
export const namesKey = (trainingId: number) => ["authoring", "translations", "names", trainingId] as const;

/**
 * The names learners choose from — the training's topic, the training, its questionnaires — in the
 * chosen content language, beside the German (binding). Topics and trainings are common content:
 * only who may edit it translates their names; the others see them read only.
 */
export function NameTranslations({ trainingId, lang }: { trainingId: number; lang: string }) {
  const { t } = useTranslation();
  const { data } = useQuery({
    queryKey: namesKey(trainingId),
    queryFn: () => call(api.authoringTrainingNames, { params: { id: trainingId } }),
  });
  return (
    <Stack gap={6} component="section" aria-labelledby={`names-${trainingId}`}>
      <Title order={3} size="h5" id={`names-${trainingId}`}>
        {t("authoring.names.title")}
      </Title>
      <Text size="sm">{t("authoring.names.help")}</Text>
      {!data ? (
        <Skeleton h={120} />
      ) : (
        <Stack gap="xs">
          {data.items.map((item) => (
            <NameRow
              // A new form for another language; after a save the form keeps what was typed (and the focus).
              key={`${item.kind}${item.id}:${lang}`}
              item={item}
              lang={lang}
              trainingId={trainingId}
            />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function NameRow({ item, lang, trainingId }: { item: NameItem; lang: string; trainingId: number }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const written = item.translations.find((x) => x.lang === lang);
  const language = languageName(lang, i18n.language);
  const form = useForm<{ name: string; status: TranslationStatus }>({
    mode: "controlled",
    initialValues: { name: written?.name ?? "", status: written?.status ?? "draft" },
    validate: { name: (v) => (v.trim() === "" ? t("common.required") : null) },
  });
  const save = useMutation({
    mutationFn: (v: { name: string; status: TranslationStatus }) =>
      call(api.authoringNameTranslationSave, {
        params: { kind: item.kind, id: item.id, lang },
        body: { name: v.name.trim(), status: v.status },
      }),
    // A failure: the client showed the error.
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: namesKey(trainingId) });
      showSuccess(t("authoring.names.saved", { language }));
    },
  });
  // The button is disabled while saving, which drops the focus: it comes back once saved.
  const saveButton = useRef<HTMLButtonElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: after each save (submittedAt)
  useEffect(() => {
    if (save.isSuccess && document.activeElement === document.body) saveButton.current?.focus();
  }, [save.isSuccess, save.submittedAt]);
  const heading = (
    <Group gap="xs" wrap="wrap">
      <Text size="sm" fw={600} style={{ overflowWrap: "anywhere" }}>
        {t(`authoring.names.kinds.${item.kind}`)}: <span lang="de">{item.name}</span>
      </Text>
      {written?.outdated && (
        <Badge color="orange" variant="light" size="sm" style={{ textTransform: "none" }}>
          {t("authoring.translations.outdatedShort")}
        </Badge>
      )}
    </Group>
  );
  if (!item.editable) {
    return (
      <Paper withBorder p="xs" data-testid="name-translation">
        {heading}
        <Text size="sm" c="dimmed">
          {written ? (
            <>
              <span {...inLanguage(lang)}>{written.name}</span> (
              {t(`authoring.translations.statuses.${written.status}`)})
            </>
          ) : (
            t("authoring.names.none")
          )}
          {" · "}
          {t("authoring.names.readOnly")}
        </Text>
      </Paper>
    );
  }
  return (
    <Paper withBorder p="xs" data-testid="name-translation">
      <form onSubmit={form.onSubmit((v) => save.mutate(v))} noValidate>
        {heading}
        {written?.outdated && (
          <Text size="xs" c="dimmed">
            {t("authoring.names.outdated")}
          </Text>
        )}
        <Group align="flex-end" wrap="wrap" gap="xs" mt={4}>
          <TextInput
            label={t("authoring.names.translation", { language })}
            withAsterisk
            maxLength={CONTENT_LIMITS.name}
            {...inLanguage(lang)}
            style={{ flex: "1 1 12rem" }}
            {...form.getInputProps("name")}
          />
          <NativeSelect
            label={t("authoring.translations.status")}
            data={statusChoices(written?.status).map((c) => ({ value: c.value, label: t(c.label) }))}
            {...form.getInputProps("status")}
          />
          <Button type="submit" variant="light" loading={save.isPending} ref={saveButton}>
            {t("common.save")}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}

import { can, type Language, languageTag, TUTORIAL_TAGS, type TutorialAudience } from "@carecampus/contract";
import { Alert, Anchor, Paper, SegmentedControl, Skeleton, Stack, Text, Title } from "@mantine/core";
import { IconInfoCircle } from "@tabler/icons-react";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import { authedHref } from "../../api/client";
import { ContentName, inLanguage, useReadingLanguage } from "../../components/ContentName";
import { PageHeader } from "../../components/PageHeader";
import { SafeHtml } from "../../components/SafeHtml";
import { useRequiredSession } from "../../session/store";
import classes from "./help.module.css";
import { useTutorial } from "./queries";

/**
 * /help: the tutorial (spec §2, §6) — the staff version for administrators, supervisors and
 * Super-Admins, who may switch to what their employees read; the employee version for everyone else.
 */
export default function TutorialPage() {
  const { t, i18n } = useTranslation();
  const { user } = useRequiredSession();
  const staff = can(user.roles, "tutorial.admin");
  const [audience, setAudience] = useState<TutorialAudience>(staff ? "admin" : "employee");
  // German where a page lacks the language.
  const tutorial = useTutorial(audience, useReadingLanguage());
  const pages = tutorial.data?.pages ?? [];

  return (
    <>
      <PageHeader title={t("tutorial.pageTitle")} />
      {staff && (
        <SegmentedControl
          value={audience}
          onChange={(v) => setAudience(v as TutorialAudience)}
          data={[
            { value: "admin", label: t("tutorial.forStaff") },
            { value: "employee", label: t("tutorial.forEmployees") },
          ]}
          aria-label={t("tutorial.version")}
          mb="md"
          fullWidth
          maw={480}
        />
      )}
      {tutorial.isPending ? (
        <Skeleton h={400} />
      ) : pages.length === 0 ? (
        <Alert color="gray" variant="light" icon={<IconInfoCircle />}>
          {t("tutorial.empty")}
        </Alert>
      ) : (
        <Stack gap="lg" data-testid="tutorial" data-audience={audience}>
          <Paper withBorder p="md" component="nav" aria-labelledby="tutorial-contents">
            <Title order={2} size="h5" id="tutorial-contents" mb="xs">
              {t("tutorial.contents")}
            </Title>
            <ol className={classes.toc}>
              {pages.map((p) => (
                <li key={p.key}>
                  <Anchor href={`#tutorial-${p.key}`}>
                    <ContentName name={p.title} lang={p.lang} />
                  </Anchor>
                </li>
              ))}
            </ol>
          </Paper>
          {pages.map((p) => (
            <Paper
              key={p.key}
              withBorder
              p={{ base: "md", sm: "lg" }}
              component="section"
              id={`tutorial-${p.key}`}
              aria-labelledby={`tutorial-${p.key}-title`}
              className={classes.section}
              tabIndex={-1}
              {...(p.lang !== i18n.language && inLanguage(p.lang))}
            >
              <Title order={2} size="h3" id={`tutorial-${p.key}-title`} mb="xs">
                {p.title}
              </Title>
              {p.image && (
                <img
                  src={authedHref(p.image)}
                  alt={t("tutorial.screenshot", { title: p.title })}
                  lang={p.lang === i18n.language ? undefined : languageTag(i18n.language as Language)}
                  className={classes.screenshot}
                  loading="lazy"
                  width={390}
                  height={780}
                />
              )}
              <SafeHtml html={p.html} tags={TUTORIAL_TAGS} />
            </Paper>
          ))}
          <Text size="sm" c="dimmed">
            {t("tutorial.more")}
          </Text>
        </Stack>
      )}
    </>
  );
}

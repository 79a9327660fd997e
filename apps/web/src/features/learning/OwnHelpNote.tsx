import type { OwnHelp } from "@carecampus/contract";
import { formatDate } from "@carecampus/contract";
import { Alert, Stack, Text } from "@mantine/core";
import { IconMessageCircle } from "@tabler/icons-react";
import { useTranslation } from "react-i18next";
import { settings } from "../../app/settings";

/** Replies of staff to the learner's help requests about this question, beside its explanation. */
export function OwnHelpNote({ help }: { help: OwnHelp }) {
  const { t } = useTranslation();
  const zone = settings["time-zone"];
  if (help.replies.length === 0) return null;
  return (
    <Alert
      color="blue"
      variant="light"
      icon={<IconMessageCircle />}
      title={t("quiz.help.answerTitle")}
      mb="md"
      data-testid="help-reply"
    >
      <Stack gap="sm">
        {help.replies.map((r) => (
          <div key={`${r.at}-${r.by}`}>
            <Text style={{ whiteSpace: "pre-wrap" }}>{r.text}</Text>
            <Text size="sm" c="dimmed">
              {t("quiz.help.answerMeta", { name: r.by, date: formatDate(r.at, zone) })}
            </Text>
          </div>
        ))}
      </Stack>
    </Alert>
  );
}

import { hasTrainings } from "@carecampus/contract";
import { RingProgress, Text, Tooltip, UnstyledButton } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { useTopics } from "../queries/learning";
import { useRequiredSession } from "../session/store";

/** The navbar ring: the employee's share of correctly answered questions over all topics. */
export function TopicProgressRing() {
  const { t } = useTranslation();
  const { user } = useRequiredSession();
  const employee = hasTrainings(user.roles);
  const { data } = useTopics(employee);
  if (!employee || !data) return null;
  const count = data.reduce((n, topic) => n + topic.count, 0);
  const total = data.reduce((n, topic) => n + topic.total, 0);
  const percent = total > 0 ? Math.round((count / total) * 100) : 0;
  const label = t("nav.progressRing", { percent });
  return (
    <Tooltip label={label}>
      <UnstyledButton component={Link} to="/profile" aria-label={label} data-testid="progress-ring">
        <RingProgress
          size={42}
          thickness={5}
          roundCaps
          sections={[{ value: percent, color: "teal" }]}
          label={
            <Text ta="center" fz={10} fw={700}>
              {percent}%
            </Text>
          }
        />
      </UnstyledButton>
    </Tooltip>
  );
}

import { Alert, List, Text } from "@mantine/core";
import type { ReactNode } from "react";

/** One thing an import will not take: what it is, why in the reader's words, and the server's own words where there are any. */
export interface Refusal {
  key: string;
  name: ReactNode;
  reason: string;
  /** The server's detail, in English (marked so). */
  detail?: string;
}

/** What a file's preview cannot take, named one by one with the reason (question banks, translation files). */
export function RefusalList({ title, items }: { title: string; items: Refusal[] }) {
  if (items.length === 0) return null;
  return (
    <Alert color="orange" variant="light" title={title}>
      <List size="sm" spacing={4}>
        {items.map((r) => (
          <List.Item key={r.key}>
            {r.name} — {r.reason}
            {r.detail && (
              <Text span size="xs" c="dimmed" display="block" lang="en">
                {r.detail}
              </Text>
            )}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

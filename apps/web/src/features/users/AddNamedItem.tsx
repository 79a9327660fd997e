import { Button, Group, TextInput } from "@mantine/core";
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { showSuccess } from "../../api/client";

/**
 * A name field and its add button below a list to choose from (a new facility, a new additional
 * qualification): creates the item, refreshes the list, selects the new item and says so; the
 * field empties once it is added.
 */
export function AddNamedItem({
  label,
  buttonLabel,
  create,
  list,
  onAdded,
  addedText,
}: {
  label: string;
  buttonLabel: string;
  create: (name: string) => Promise<{ id: number }>;
  /** The list the new item appears in. */
  list: QueryKey;
  onAdded: (id: number) => void;
  addedText: string;
}) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const adding = useMutation({
    mutationFn: create,
    // A failure: the client shows the error toast and the name stays for another try.
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: list });
      onAdded(created.id);
      setName("");
      showSuccess(addedText);
    },
  });
  return (
    <Group align="flex-end" gap="xs">
      <TextInput label={label} value={name} onChange={(e) => setName(e.currentTarget.value)} maw={320} />
      <Button variant="light" disabled={name.trim() === ""} onClick={() => adding.mutate(name.trim())}>
        {buttonLabel}
      </Button>
    </Group>
  );
}

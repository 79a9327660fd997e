import { Button, Group, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { type QueryKey, useMutation, useQueryClient } from "@tanstack/react-query";
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
  const form = useForm({ mode: "controlled", initialValues: { name: "" } });
  const name = form.getValues().name.trim();
  const adding = useMutation({
    mutationFn: (name: string) => create(name),
    // A failure: the client shows the error toast and the name stays for another try.
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: list });
      onAdded(created.id);
      form.reset();
      showSuccess(addedText);
    },
  });
  return (
    <Group align="flex-end" gap="xs">
      <TextInput label={label} {...form.getInputProps("name")} maw={320} />
      <Button variant="light" disabled={name === ""} onClick={() => adding.mutate(name)}>
        {buttonLabel}
      </Button>
    </Group>
  );
}

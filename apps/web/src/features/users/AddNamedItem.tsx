import { Button, Group, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState } from "react";

/**
 * A name field and its add button below a list to choose from (a new facility, a new additional
 * qualification): `add` creates the item and selects it; the field empties once it is added.
 */
export function AddNamedItem({
  label,
  buttonLabel,
  add,
}: {
  label: string;
  buttonLabel: string;
  add: (name: string) => Promise<void>;
}) {
  const [name, setName] = useState("");
  const adding = useMutation({
    mutationFn: add,
    // A failure: the client shows the error toast and the name stays for another try.
    onSuccess: () => setName(""),
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

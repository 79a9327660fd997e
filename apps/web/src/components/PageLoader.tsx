import { Center, Loader } from "@mantine/core";

/** While a screen's code or data loads: a spinner (announced as loading: App.tsx gives every Loader its role). */
export function PageLoader() {
  return (
    <Center py="xl">
      <Loader />
    </Center>
  );
}

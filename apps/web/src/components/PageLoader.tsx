import { Center, Loader } from "@mantine/core";
import { useTranslation } from "react-i18next";

/** While a screen's code or data loads: a spinner that screen readers announce as loading. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader role="status" aria-label={t("common.loading")} />
    </Center>
  );
}

import { api } from "@carecampus/contract";
import { Anchor } from "@mantine/core";
import { IconDownload } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { authedUrl, call, freshLink } from "../../api/client";

/** The ids of a user's certificates with a signed credential (none while VERIFIABLE_CREDENTIALS is off). */
export function useCredentialCertificates(userId: number): Set<number> {
  const { data } = useQuery({
    queryKey: ["credentials", userId],
    queryFn: () => call(api.credentialList, { params: { id: userId } }),
  });
  return new Set(data?.certificates ?? []);
}

/** "Digitaler Nachweis (Open Badge)": the certificate's signed credential, beside its PDF. */
export function CredentialLink({ certificateId, training }: { certificateId: number; training: string }) {
  const { t } = useTranslation();
  return (
    <Anchor
      size="xs"
      underline="always"
      data-testid="credential-download"
      // Its name starts with the text it shows (WCAG 2.5.3), then says which certificate.
      aria-label={`${t("credentials.download")}: ${training}`}
      {...freshLink(() => authedUrl(api.credentialGet, { params: { id: certificateId } }))}
    >
      <IconDownload size={12} aria-hidden style={{ verticalAlign: "middle" }} /> {t("credentials.download")}
    </Anchor>
  );
}

import { Button, Image, Stack, Text, Title } from "@mantine/core";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import notFound from "../assets/not-found.svg";
import { useSession } from "../session/store";
import { UserAvatar } from "./UserAvatar";

/** 'Page not found', an image and the user's avatar (spec §2). */
export function NotFoundPage() {
  const { t } = useTranslation();
  const session = useSession();
  return (
    <Stack align="center" gap="md" py="xl" ta="center">
      {session && <UserAvatar avatar={session.user.avatar} size={72} alt="" />}
      <Title order={1}>{t("notFound.title")}</Title>
      <Image src={notFound} maw={360} w="100%" alt="" />
      <Text c="dimmed">{t("notFound.text")}</Text>
      <Button component={Link} to="/">
        {t("nav.backHome")}
      </Button>
    </Stack>
  );
}

import type { Avatar as AvatarName } from "@carecampus/contract";
import { Avatar, type AvatarProps } from "@mantine/core";
import bee from "../assets/avatars/bee.svg";
import dolphin from "../assets/avatars/dolphin.svg";
import female from "../assets/avatars/female.svg";
import fox from "../assets/avatars/fox.svg";
import frog from "../assets/avatars/frog.svg";
import male from "../assets/avatars/male.svg";
import monkey from "../assets/avatars/monkey.svg";
import owl from "../assets/avatars/owl.svg";
import penguin from "../assets/avatars/penguin.svg";
import pig from "../assets/avatars/pig.svg";

export const AVATAR_IMAGES: Record<AvatarName, string> = {
  female,
  male,
  bee,
  owl,
  frog,
  fox,
  penguin,
  pig,
  monkey,
  dolphin,
};

export function UserAvatar({ avatar, ...props }: { avatar: AvatarName; alt?: string } & AvatarProps) {
  return <Avatar src={AVATAR_IMAGES[avatar]} radius="xl" {...props} />;
}

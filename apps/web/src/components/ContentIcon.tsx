import { api } from "@carecampus/contract";
import { Image } from "@mantine/core";
import { authedUrl } from "../api/client";

/** A topic or training icon from the content package. */
export function ContentIcon({ name, size = 48 }: { name: string; size?: number }) {
  return (
    <Image
      src={authedUrl(api.staticIcon, { params: { file: `icon_${name}.svg` } })}
      w={size}
      h={size}
      alt=""
      fit="contain"
    />
  );
}

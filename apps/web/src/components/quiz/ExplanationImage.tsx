import { Image, Modal, UnstyledButton } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "react-i18next";
import classes from "./quiz.module.css";

/**
 * The explanation's image; a tap opens it full screen, where the page may be pinch-zoomed
 * (the modal's scroll lock lets pinch gestures through). Escape or the close button end it, and
 * the focus returns to the image.
 */
export function ExplanationImage({ src }: { src: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <UnstyledButton
        onClick={() => setOpen(true)}
        aria-label={t("quiz.image.open")}
        className={classes.imageButton}
        data-testid="explanation-image"
        mb="md"
      >
        <Image src={src} maw={560} radius="md" alt={t("quiz.image.alt")} />
      </UnstyledButton>
      <Modal
        opened={open}
        onClose={() => setOpen(false)}
        fullScreen
        title={t("quiz.image.title")}
        removeScrollProps={{ allowPinchZoom: true }}
        classNames={{ body: classes.zoomBody }}
      >
        <img src={src} alt={t("quiz.image.alt")} className={classes.zoomImage} data-testid="zoomed-image" />
      </Modal>
    </>
  );
}

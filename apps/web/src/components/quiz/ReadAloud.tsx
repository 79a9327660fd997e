import { ActionIcon, Tooltip } from "@mantine/core";
import { IconPlayerStopFilled, IconVolume } from "@tabler/icons-react";
import { useEffect, useRef, useSyncExternalStore } from "react";
import { useTranslation } from "react-i18next";

/** The UI languages as speech synthesis names them (br is Brazilian Portuguese). */
const SPEECH_LANG: Record<string, string> = { de: "de-DE", en: "en-GB", fr: "fr-FR", es: "es-ES", br: "pt-BR" };

/** Whether this browser can read aloud at all; without it no button shows. */
export function canReadAloud(): boolean {
  return (
    typeof window !== "undefined" &&
    typeof window.speechSynthesis?.speak === "function" &&
    typeof window.SpeechSynthesisUtterance === "function"
  );
}

/** Which button's text is being read: one at a time on the page. */
let speaking: symbol | null = null;
const listeners = new Set<() => void>();
function setSpeaking(owner: symbol | null): void {
  speaking = owner;
  for (const l of listeners) l();
}
const subscribe = (l: () => void) => {
  listeners.add(l);
  return () => listeners.delete(l);
};

/** Text of sanitised HTML (the explanation), for reading aloud; DOMParser runs no scripts. */
export function htmlText(html: string): string {
  return new DOMParser().parseFromString(html, "text/html").body.textContent?.replace(/\s+/g, " ").trim() ?? "";
}

/**
 * A button that reads `parts` aloud with the browser's speech synthesis, for staff reading German
 * as a second language: in `lang`, the language of the content read (a question in German or in
 * its translation, issue 31), else the UI language. Pressed again it stops; it stops as well when
 * it leaves the screen (the next question, another page).
 */
export function ReadAloud({ parts, testId, lang: contentLang }: { parts: string[]; testId?: string; lang?: string }) {
  const { t, i18n } = useTranslation();
  const me = useRef(Symbol("read-aloud")).current;
  const active = useSyncExternalStore(subscribe, () => speaking === me);

  useEffect(
    () => () => {
      if (speaking === me) {
        window.speechSynthesis.cancel();
        setSpeaking(null);
      }
    },
    [me],
  );

  if (!canReadAloud()) return null;
  const toggle = () => {
    const synth = window.speechSynthesis;
    synth.cancel();
    if (active) {
      setSpeaking(null);
      return;
    }
    const spoken = contentLang ?? i18n.language;
    const lang = SPEECH_LANG[spoken] ?? spoken;
    const utterance = new SpeechSynthesisUtterance(parts.filter(Boolean).join(". \n"));
    utterance.lang = lang;
    const voices = synth.getVoices();
    const voice =
      voices.find((v) => v.lang.replace("_", "-") === lang) ??
      voices.find((v) => v.lang.slice(0, 2) === lang.slice(0, 2));
    if (voice) utterance.voice = voice;
    const done = () => {
      if (speaking === me) setSpeaking(null);
    };
    utterance.onend = done;
    utterance.onerror = done;
    setSpeaking(me);
    synth.speak(utterance);
  };
  const label = active ? t("quiz.readAloud.stop") : t("quiz.readAloud.start");
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant={active ? "filled" : "light"}
        size="lg"
        onClick={toggle}
        aria-label={label}
        aria-pressed={active}
        data-testid={testId}
      >
        {active ? <IconPlayerStopFilled size={20} aria-hidden /> : <IconVolume size={22} aria-hidden />}
      </ActionIcon>
    </Tooltip>
  );
}

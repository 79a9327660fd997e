import { POPUP_RIGHT_MS, POPUP_WRONG_MS } from "@carecampus/contract";

// Feedback images per language (default, de, en, fr), chosen at random (spec §2).
const images = import.meta.glob<string>("../../assets/feedback/*.svg", { eager: true, import: "default" });

function pool(kind: "right" | "wrong", language: string): string[] {
  const own = Object.entries(images).filter(([path]) => path.includes(`/${kind}-${language}-`));
  const fallback = Object.entries(images).filter(([path]) => path.includes(`/${kind}-default-`));
  return [...own, ...fallback].map(([, url]) => url);
}

export function pickFeedback(
  right: boolean,
  language: string,
  random = Math.random,
): { src: string | undefined; ms: number } {
  const list = pool(right ? "right" : "wrong", language);
  return { src: list[Math.floor(random() * list.length)], ms: right ? POPUP_RIGHT_MS : POPUP_WRONG_MS };
}

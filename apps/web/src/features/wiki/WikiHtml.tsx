import { useMemo } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { authedHref } from "../../api/client";
import safe from "../../components/SafeHtml.module.css";
import { prepareWikiHtml } from "./html";
import classes from "./wiki.module.css";

/** A wiki page's sanitised HTML; links inside the product open without reloading the app. */
export function WikiHtml({ html, testId }: { html: string; testId?: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const prepared = useMemo(
    () =>
      prepareWikiHtml(html, {
        calloutTitle: (kind) => t(`wiki.callout.${kind}`),
        imageUrl: authedHref,
        tableLabel: t("wiki.table"),
      }),
    [html, t],
  );
  const onClick = (e: React.MouseEvent<HTMLDivElement>) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const link = (e.target as HTMLElement).closest("a");
    const href = link?.getAttribute("href") ?? "";
    if (
      !link ||
      link.target === "_blank" ||
      !href.startsWith("/") ||
      href.startsWith("//") ||
      href.startsWith("/api/")
    ) {
      return;
    }
    e.preventDefault();
    void navigate(href);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: the links inside are the controls; this only routes their clicks
    <div
      className={`${safe.html} ${classes.content}`}
      onClick={onClick}
      data-testid={testId}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by DOMPurify in prepareWikiHtml
      dangerouslySetInnerHTML={{ __html: prepared }}
    />
  );
}

import { useSearchParams } from "react-router";

/**
 * ?facility= : the facility whose pages a Super-Admin or superuser looks at beside the common
 * ones (the server's WikiScopeQuery). Kept on every wiki link so the choice survives navigation.
 */
export function useWikiFacility(): [number | null, (id: number | null) => void] {
  const [params, setParams] = useSearchParams();
  const raw = Number(params.get("facility"));
  const facility = Number.isInteger(raw) && raw > 0 ? raw : null;
  const set = (id: number | null) =>
    setParams(
      (p) => {
        if (id === null) p.delete("facility");
        else p.set("facility", String(id));
        return p;
      },
      { replace: true },
    );
  return [facility, set];
}

/** The address of the wiki, a topic or a page, with the facility in view. */
export function wikiPath(
  facility: number | null,
  topic?: string,
  slug?: string,
  extra: Record<string, string> = {},
): string {
  const path = ["/wiki", topic, slug]
    .filter((p): p is string => !!p)
    .map((p, i) => (i === 0 ? p : encodeURIComponent(p)))
    .join("/");
  const query = new URLSearchParams(extra);
  if (facility) query.set("facility", String(facility));
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

/** A slug from a title: lower case, umlauts spelt out, anything else a hyphen (WIKI_SLUG). */
export function slugify(title: string): string {
  return title
    .toLowerCase()
    .replace(/ä/g, "ae")
    .replace(/ö/g, "oe")
    .replace(/ü/g, "ue")
    .replace(/ß/g, "ss")
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 63)
    .replace(/-+$/g, "");
}

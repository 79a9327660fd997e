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

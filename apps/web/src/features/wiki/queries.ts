import { api, type WikiPage } from "@carecampus/contract";
import { type QueryClient, useQuery } from "@tanstack/react-query";
import { ApiError, call } from "../../api/client";

export const wikiKeys = {
  all: ["wiki"] as const,
  tree: (facility: number | null) => ["wiki", "tree", facility ?? 0] as const,
  page: (topic: string, slug: string, lang: string, draft: boolean, facility: number | null) =>
    ["wiki", "page", topic, slug, lang, draft, facility ?? 0] as const,
  search: (q: string, lang: string, facility: number | null) => ["wiki", "search", q, lang, facility ?? 0] as const,
  revisions: (id: number) => ["wiki", "revisions", id] as const,
  revision: (id: number, number: number, lang: string) => ["wiki", "revision", id, number, lang] as const,
  diff: (id: number, from: number, to: number, lang: string) => ["wiki", "diff", id, from, to, lang] as const,
  confirmations: (id: number, facility: number | null) => ["wiki", "confirmations", id, facility ?? 0] as const,
};

export const useWikiTree = (facility: number | null) =>
  useQuery({
    queryKey: wikiKeys.tree(facility),
    queryFn: () => call(api.wikiTree, { query: { facility: facility ?? undefined } }),
  });

export interface PageAddress {
  topic: string;
  slug: string;
  lang: string;
  draft: boolean;
  facility: number | null;
}

/** Reads one page; a page that is not there (or lies in another facility) is 404, shown as 'not found' without a toast. */
export function fetchWikiPage(a: PageAddress): Promise<WikiPage> {
  return call(api.wikiPageGet, {
    params: { topic: a.topic, slug: a.slug },
    query: { lang: a.lang, draft: a.draft ? "true" : undefined, facility: a.facility ?? undefined },
    silent: true,
  });
}

export const useWikiPage = (a: PageAddress) =>
  useQuery({
    queryKey: wikiKeys.page(a.topic, a.slug, a.lang, a.draft, a.facility),
    queryFn: () => fetchWikiPage(a),
    retry: (count, error) => !(error instanceof ApiError && error.status > 0 && error.status < 500) && count < 2,
  });

export const useWikiSearch = (q: string, lang: string, facility: number | null) =>
  useQuery({
    queryKey: wikiKeys.search(q, lang, facility),
    queryFn: ({ signal }) => call(api.wikiSearch, { query: { q, lang, facility: facility ?? undefined }, signal }),
    enabled: q.length >= 2,
    placeholderData: (previous) => previous,
  });

export const useWikiRevisions = (id: number, enabled: boolean) =>
  useQuery({
    queryKey: wikiKeys.revisions(id),
    queryFn: () => call(api.wikiRevisions, { params: { id } }),
    enabled,
  });

export const useWikiRevision = (id: number, number: number | null, lang: string) =>
  useQuery({
    queryKey: wikiKeys.revision(id, number ?? 0, lang),
    queryFn: () => call(api.wikiRevision, { params: { id, number: number ?? 0 }, query: { lang } }),
    enabled: number !== null,
  });

export const useWikiDiff = (id: number, range: { from: number; to: number } | null, lang: string) =>
  useQuery({
    queryKey: wikiKeys.diff(id, range?.from ?? 0, range?.to ?? 0, lang),
    queryFn: () => call(api.wikiDiff, { params: { id }, query: { from: range?.from ?? 0, to: range?.to ?? 0, lang } }),
    enabled: range !== null,
  });

export const useWikiConfirmations = (id: number, facility: number | null, enabled: boolean) =>
  useQuery({
    queryKey: wikiKeys.confirmations(id, facility),
    queryFn: () => call(api.wikiConfirmations, { params: { id }, query: { facility: facility ?? undefined } }),
    enabled,
  });

/** After a write: the tree, pages, search, history and confirmations may all have changed. */
export const refreshWiki = (client: QueryClient) => client.invalidateQueries({ queryKey: wikiKeys.all });

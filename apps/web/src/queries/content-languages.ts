import { api } from "@carecampus/contract";
import { useQuery } from "@tanstack/react-query";
import { call } from "../api/client";

/**
 * The languages trainings come in (GET /content-languages): German, the binding original, first,
 * then CONTENT_LANGUAGES. The learner's choice on the profile and the translations in the editor
 * (issue 31). Fixed while the server runs.
 */
export const useContentLanguages = () =>
  useQuery({
    queryKey: ["content-languages"],
    queryFn: () => call(api.contentLanguageList),
    staleTime: Number.POSITIVE_INFINITY,
  });

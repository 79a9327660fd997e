import { QueryClient } from "@tanstack/react-query";

/** The cache of the logged-in screens (the shell provides it; the login needs none). */
export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
});

import { QueryClient } from "@tanstack/react-query";

/**
 * The cache of one user's logged-in screens: each shell makes its own (Shell.tsx), and a shell
 * lives as long as one user's session in this tab (guards.tsx RequireAuth), so no answer cached
 * for one user is ever shown to the next. The login needs none.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false, staleTime: 30_000 } },
  });
}

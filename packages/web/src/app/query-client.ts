/**
 * The TanStack Query client (DESIGN §10). Queries do not retry: the
 * specification's silent failures should show an empty state at once, and a
 * 401 must not be repeated.
 */
import { QueryClient } from '@tanstack/react-query';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
    mutations: { retry: false },
  },
});

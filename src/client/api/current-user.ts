import { useQuery, type QueryClient } from '@tanstack/react-query';
import { ROUTES } from '../../shared/api/routes';
import { Me } from '../../shared/api/auth';
import { call, ApiError } from './http';

export const CURRENT_USER_KEY = ['current-user'] as const;
/** The spec's localStorage key: a cache for instant rendering, never the authority. */
const STORAGE_KEY = 'currentUser';

function readCachedUser(): Me | undefined {
  try {
    // Written by an older build, or by hand: what does not read as a user is no user.
    const cached = Me.safeParse(JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null'));
    return cached.success ? cached.data : undefined;
  } catch {
    return undefined;
  }
}

function writeCachedUser(user: Me | null) {
  if (user) localStorage.setItem(STORAGE_KEY, JSON.stringify(user));
  else localStorage.removeItem(STORAGE_KEY);
}

/** Who the server says is signed in; null when nobody is. */
async function fetchCurrentUser(): Promise<Me | null> {
  try {
    const { user } = await call(ROUTES.me);
    writeCachedUser(user);
    return user;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      writeCachedUser(null);
      return null;
    }
    throw error;
  }
}

/**
 * The signed-in user: the cached copy renders at once, then the server's answer replaces it.
 * `undefined` means "not known yet" (no cache and the server hasn't answered).
 */
export function useCurrentUser(): Me | null | undefined {
  const { data, isError } = useQuery({
    queryKey: CURRENT_USER_KEY,
    queryFn: fetchCurrentUser,
    initialData: readCachedUser,
    // The cache is only a first guess: always confirm with the server on load.
    initialDataUpdatedAt: 0,
    staleTime: 60_000,
  });
  // With no cache and no answer (offline), treat the visitor as signed out rather than spin forever.
  if (data !== undefined) return data;
  return isError ? null : undefined;
}

export function setCurrentUser(queryClient: QueryClient, user: Me | null) {
  writeCachedUser(user);
  queryClient.setQueryData(CURRENT_USER_KEY, user);
}

/** Drops the cached copy only; the server's answer (the query) is left as it is. */
export function forgetCachedUser() {
  writeCachedUser(null);
}

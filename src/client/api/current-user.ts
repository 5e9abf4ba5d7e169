import { useQuery, type QueryClient } from '@tanstack/react-query';
import type { Me } from '../../shared/api/auth';
import { ROLES } from '../../shared/moderation';
import { call, ApiError } from './http';

export const CURRENT_USER_KEY = ['current-user'] as const;
/** The spec's localStorage key: a cache for instant rendering, never the authority. */
const STORAGE_KEY = 'currentUser';

function readCachedUser(): Me | undefined {
  try {
    const cached: unknown = JSON.parse(localStorage.getItem(STORAGE_KEY) ?? 'null');
    return isCachedUser(cached) ? cached : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the cache holds a user of today's shape: written by an older build, or by hand, what
 * does not read as a user is no user. Checked field by field rather than with the `Me` schema,
 * which would bring zod into the boot bundle (http.ts) just for this first guess.
 */
function isCachedUser(value: unknown): value is Me {
  if (typeof value !== 'object' || value === null) return false;
  const user: Partial<Record<keyof Me, unknown>> = value;
  const text = (field: unknown) => typeof field === 'string';
  return (
    text(user.uid) &&
    text(user.username) &&
    text(user.email) &&
    text(user.bio) &&
    (user.icon === null || text(user.icon)) &&
    ROLES.some((role) => role === user.role)
  );
}

function writeCachedUser(user: Me | null) {
  if (user) localStorage.setItem(STORAGE_KEY, JSON.stringify(user));
  else localStorage.removeItem(STORAGE_KEY);
}

/** Who the server says is signed in; null when nobody is. */
async function fetchCurrentUser(): Promise<Me | null> {
  try {
    const { user } = await call('me');
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

/**
 * The server signed this browser in as `user`, who may not be whoever was signed in before (a
 * reset or claim link, a first single sign-on): nothing of the previous account's may linger.
 */
export function signedInAs(queryClient: QueryClient, user: Me) {
  queryClient.clear();
  setCurrentUser(queryClient, user);
}

/** Drops the cached copy only; the server's answer (the query) is left as it is. */
export function forgetCachedUser() {
  writeCachedUser(null);
}

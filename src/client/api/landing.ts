import { hashKey, type QueryKey } from '@tanstack/react-query';

/**
 * Answers read for the screen the tab opened on, before that screen mounts: prefetched at boot
 * (query-client.ts) or sent with the page (first-view.ts). Their first answer counts as fresh for
 * a few seconds, so the screen that mounts just after uses it instead of asking again (issue 28);
 * any later answer, and any other query, is stale at once as before.
 */
const LANDING_FRESH_MS = 10_000;
const landing = new Set<string>();

export function markLanding(queryKey: QueryKey) {
  landing.add(hashKey(queryKey));
}

/** A query's staleTime: fresh while it holds its landing answer (see above), else 0. */
export function landingStaleTime(query: { queryHash: string; state: { dataUpdateCount: number; dataUpdatedAt: number } }): number {
  const { dataUpdateCount, dataUpdatedAt } = query.state;
  return landing.has(query.queryHash) && dataUpdateCount === 1 && Date.now() - dataUpdatedAt < LANDING_FRESH_MS ? LANDING_FRESH_MS : 0;
}

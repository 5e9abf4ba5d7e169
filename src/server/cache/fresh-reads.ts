import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Per request: whether its reads must skip the shared cache. A process that has not yet heard
 * of the viewer's own latest change (it is on its way from another process) reads from the
 * database for that viewer, so nobody ever sees their own change undone (db/change-feed.ts).
 */
const requestScope = new AsyncLocalStorage<{ fresh: boolean }>();

/** Runs `work` (the rest of a request) in a scope of its own. */
export function withinRequest(work: () => void) {
  requestScope.run({ fresh: false }, work);
}

/** The rest of this request reads around the cache. */
export function readFreshFromNowOn() {
  const scope = requestScope.getStore();
  if (scope) scope.fresh = true;
}

export function mustReadFresh(): boolean {
  return requestScope.getStore()?.fresh ?? false;
}

import type { Profile } from '../../src/shared/api/users';
/**
 * The client tests' harness: real components, a real QueryClient and router, and MSW answering
 * at the HTTP boundary (the components' own fetch calls go out and come back as real Responses).
 * Every request is logged, so a test can say what a change read again, and what it did not.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, waitFor } from '@testing-library/react';
import { http, HttpResponse, type JsonBodyType } from 'msw';
import { setupServer } from 'msw/node';
import type { ReactNode } from 'react';
import { MemoryRouter } from '../../src/client/lib/router';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import type { Me } from '../../src/shared/api/auth';
import type { PostCard } from '../../src/shared/api/posts';
import { ANSWER_SCHEMAS } from '../../src/client/api/answer-schemas';
import { setCurrentUser } from '../../src/client/api/current-user';

/** The bell on every screen's bar asks how much is unread (issue 30): nothing, unless a test says otherwise. */
export const server = setupServer(http.get('/api/activity/unread', () => HttpResponse.json({ unread: 0 })));
/** 'GET /api/users/maya' for every request sent, in order (path and query). */
export const requests: string[] = [];
server.events.on('request:start', ({ request }) => {
  const url = new URL(request.url);
  requests.push(`${request.method} ${url.pathname}${url.search}`);
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
// The answers' schemas load beside the first request (client/api/http.ts); loaded here once, a
// test's first reads do not wait for the modules' transforms (seconds on a loaded machine).
beforeAll(() => Promise.all([import('../../src/client/api/answers'), ...Object.values(ANSWER_SCHEMAS).map((load) => load())]));
afterEach(() => {
  cleanup();
  server.resetHandlers();
  requests.length = 0;
  localStorage.clear();
});
afterAll(() => server.close());

/** How many of the logged requests were `method path` (path with its query, if any). */
export const sent = (request: string) => requests.filter((r) => r === request).length;

export const me: Me = {
  uid: 'u-me',
  username: 'sam',
  email: 'sam@example.com',
  bio: '',
  icon: null,
  role: 'member',
  emailVerified: true,
  pendingEmail: null,
  mustVerify: false,
  hasPassword: true,
};

/** A request that stays unanswered until `release()`: what the screen shows meanwhile is the optimistic state. */
export function held() {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  return { gate, release };
}

export const json = (body: JsonBodyType, status = 200) => HttpResponse.json(body, { status });
export const failure = (status = 500) => HttpResponse.json({ code: 'GENERIC', message: 'Something went wrong.' }, { status });
export { http, HttpResponse };

/** A profile as GET /api/users/:username answers it: nobody follows anyone yet. */
export const profile = (username: string, extra: Partial<Profile> = {}): Profile => ({
  uid: `u-${username}`,
  username,
  icon: null,
  bio: '',
  followers: 0,
  following: 0,
  followedByMe: false,
  blockedByMe: false,
  ...extra,
});

export function card(id: string, ratio = 1): PostCard {
  return {
    id,
    description: `Post ${id}`,
    image: { width: 100, height: Math.round(100 * ratio), placeholder: '', full: `/media/${id}.jpg`, variants: [] },
  };
}

/**
 * Renders `ui` as the app does (QueryClientProvider, a router at `route`), signed in as `user`
 * (null: signed out). Queries are not retried, so a failure shows at once.
 */
export function renderApp(ui: ReactNode, { user = me, route = '/' }: { user?: Me | null; route?: string } = {}) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  setCurrentUser(queryClient, user);
  const view = render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={[route]}>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
  return { ...view, queryClient };
}

/**
 * Waits until no query is fetching: every first read has its answer (parsed by the schemas, which
 * load beside the first request), so what a test does next cannot overtake a read still in flight.
 */
export const settled = (queryClient: QueryClient) => waitFor(() => expect(queryClient.isFetching()).toBe(0), { timeout: 20_000 });

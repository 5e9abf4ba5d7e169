// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CURRENT_USER_KEY } from '../../src/client/api/current-user';
import { Feed } from '../../src/client/features/posts';
import { MemoryRouter } from '../../src/client/lib/router';
import { prefetchForLanding } from '../../src/client/query-client';
import { card, http, json, me, sent, server } from './harness';

/**
 * Issue 28: the home page of a signed-in viewer brings its first view (server/http/client-app.ts).
 * The feed renders it without asking the API again; without it, the feed asks as it always did.
 */

function withFirstView(value: unknown) {
  const block = document.createElement('script');
  block.type = 'application/json';
  block.id = 'first-view';
  block.textContent = JSON.stringify(value);
  document.head.append(block);
}

function land() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
  prefetchForLanding('/', queryClient);
  render(
    <QueryClientProvider client={queryClient}>
      <MemoryRouter initialEntries={['/']}>
        <Feed />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return queryClient;
}

describe('the first view sent with the home page', () => {
  it('fills the feed and the signed-in user at once, with no request for either', async () => {
    server.use(http.get('/api/posts', () => json({ posts: [card('api')], nextCursor: null })));
    withFirstView({ me: { user: me }, feed: { posts: [card('a'), card('b', 1.5)], nextCursor: null } });
    const queryClient = land();
    const list = screen.getByRole('list', { name: 'Posts' });
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/post/a', '/post/b']);
    expect(queryClient.getQueryData(CURRENT_USER_KEY)).toEqual(me);
    // Nothing goes out afterwards either (a mount that found the page stale would ask again).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent('GET /api/posts')).toBe(0);
    expect(sent('GET /api/me')).toBe(0);
    // Read once: the block is gone, so a later landing asks the API.
    expect(document.getElementById('first-view')).toBeNull();
  });

  it('without one (signed out, or a page that is not the home page), the feed asks the API', async () => {
    server.use(http.get('/api/posts', () => json({ posts: [card('api')], nextCursor: null })));
    land();
    const list = await screen.findByRole('list', { name: 'Posts' });
    await waitFor(() =>
      expect(
        within(list)
          .getAllByRole('link')
          .map((link) => link.getAttribute('href')),
      ).toEqual(['/post/api']),
    );
    expect(sent('GET /api/posts')).toBe(1);
  });

  it('ignores a block that does not read as a first view', async () => {
    server.use(http.get('/api/posts', () => json({ posts: [card('api')], nextCursor: null })));
    withFirstView({ feed: 'nope' });
    land();
    expect(await screen.findByRole('link')).toBeTruthy();
    expect(sent('GET /api/posts')).toBe(1);
    expect(document.getElementById('first-view')).toBeNull();
  });
});

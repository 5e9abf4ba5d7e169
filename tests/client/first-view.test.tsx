// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { CURRENT_USER_KEY } from '../../src/client/api/current-user';
import { Feed } from '../../src/client/features/posts';
import { postQueries } from '../../src/client/features/posts/api/queries';
import { MemoryRouter } from '../../src/client/lib/router';
import { prefetchForLanding } from '../../src/client/query-client';
import { card, http, json, me, requests, sent, server } from './harness';

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

  it('on any other page, says who is signed in (a profile knows at once whether it is yours)', () => {
    withFirstView({ me: { user: me } });
    const queryClient = new QueryClient();
    prefetchForLanding('/@sam', queryClient);
    expect(queryClient.getQueryData(CURRENT_USER_KEY)).toEqual(me);
    expect(queryClient.getQueryData(postQueries.feed().queryKey)).toBeUndefined();
    expect(requests).toEqual([]);
  });

  it('when nobody is signed in, says so and asks for nothing: the sign-in screen shows at once', async () => {
    withFirstView({ me: null });
    localStorage.setItem('currentUser', JSON.stringify(me));
    const queryClient = new QueryClient();
    prefetchForLanding('/', queryClient);
    expect(queryClient.getQueryData(CURRENT_USER_KEY)).toBeNull();
    expect(localStorage.getItem('currentUser')).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toEqual([]);
  });

  it('ignores a block that does not read as a first view', async () => {
    server.use(http.get('/api/posts', () => json({ posts: [card('api')], nextCursor: null })));
    withFirstView({ me: null, feed: { posts: [card('signed-out')], nextCursor: null } });
    land();
    expect(await screen.findByRole('link')).toBeTruthy();
    expect(sent('GET /api/posts')).toBe(1);
    document.body.replaceChildren();
    withFirstView({ feed: 'nope' });
    land();
    expect(await screen.findByRole('link')).toBeTruthy();
    expect(sent('GET /api/posts')).toBe(2);
    expect(document.getElementById('first-view')).toBeNull();
  });
});

describe('landing on a post’s page', () => {
  it('asks for the post at boot, and the page that mounts after its answer does not ask again', async () => {
    const post = { ...card('p1'), link: '', hashtags: [], createdAt: '2026-01-01T00:00:00.000Z' };
    const detail = { ...post, author: { uid: 'u-maya', username: 'maya', icon: null, followers: 0, followedByMe: false } };
    server.use(http.get('/api/posts/p1', () => json({ post: detail })));
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
    prefetchForLanding('/post/p1', queryClient);
    expect(sent('GET /api/posts/p1')).toBe(1);
    // The screen's code arrives after the answer (the usual order on a phone).
    await waitFor(() => expect(queryClient.getQueryData(postQueries.detail('p1').queryKey)).toBeDefined());
    render(
      <QueryClientProvider client={queryClient}>
        <PostDescription id="p1" />
      </QueryClientProvider>,
    );
    expect(screen.getByText('Post p1')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(sent('GET /api/posts/p1')).toBe(1);
  });
});

describe('a post’s page sent with its post', () => {
  it('renders the post from the page, with no request for it', async () => {
    const post = { ...card('p2'), link: '', hashtags: [], createdAt: '2026-01-01T00:00:00.000Z' };
    const detail = { ...post, author: { uid: 'u-maya', username: 'maya', icon: null, followers: 0, followedByMe: false } };
    withFirstView({ me: { user: me }, post: { post: detail } });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
    prefetchForLanding('/post/p2', queryClient);
    render(
      <QueryClientProvider client={queryClient}>
        <PostDescription id="p2" />
      </QueryClientProvider>,
    );
    expect(screen.getByText('Post p2')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(requests).toEqual([]);
  });

  it('asks for the post when the page brought another one', async () => {
    const detail = {
      ...card('other'),
      link: '',
      hashtags: [],
      createdAt: '2026-01-01T00:00:00.000Z',
      author: { uid: 'u', username: 'u', icon: null, followers: 0, followedByMe: false },
    };
    server.use(http.get('/api/posts/p3', () => json({ post: { ...detail, id: 'p3', description: 'Post p3' } })));
    withFirstView({ me: { user: me }, post: { post: detail } });
    const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });
    prefetchForLanding('/post/p3', queryClient);
    expect(sent('GET /api/posts/p3')).toBe(1);
  });
});

function PostDescription({ id }: { id: string }) {
  const { data } = useQuery(postQueries.detail(id));
  return <p>{data?.description ?? 'loading'}</p>;
}

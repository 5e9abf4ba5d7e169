// @vitest-environment happy-dom
import { useQuery, useInfiniteQuery } from '@tanstack/react-query';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { FollowButton } from '../../src/client/features/follows';
import { profileQueries } from '../../src/client/features/people';
import { postQueries } from '../../src/client/features/posts';
import type { PostDetail } from '../../src/shared/api/posts';
import * as COPY from '../../src/shared/copy';
import { card, failure, held, http, json, me, profile, renderApp, sent, server, settled } from './harness';

const post = (id: string, author: string): PostDetail => ({
  ...card(id),
  hashtags: [],
  createdAt: '2026-01-01T00:00:00.000Z',
  link: '',
  author: { uid: `u-${author}`, username: author, icon: null, followers: 0, followedByMe: false },
});

/** What else is on screen: both profiles, their lists, a post of each author, and the feed. */
function Watching() {
  useQuery(profileQueries.detail('maya'));
  useQuery(profileQueries.detail(me.username));
  useQuery(profileQueries.detail('lee'));
  useInfiniteQuery(profileQueries.followList('maya', 'followers'));
  useInfiniteQuery(profileQueries.followList(me.username, 'following'));
  useInfiniteQuery(profileQueries.posts('maya'));
  useQuery(postQueries.detail('by-maya'));
  useQuery(postQueries.detail('by-lee'));
  useInfiniteQuery(postQueries.feed());
  return null;
}

function answerReads() {
  server.use(
    http.get('/api/users/:username', ({ params }) => json({ user: profile(String(params.username)) })),
    http.get('/api/users/:username/:list', () => json({ users: [], posts: [], nextCursor: null })),
    http.get('/api/posts/:id', ({ params }) => json({ post: post(String(params.id), params.id === 'by-maya' ? 'maya' : 'lee') })),
    http.get('/api/posts', () => json({ posts: [], nextCursor: null })),
  );
}

const READS = [
  'GET /api/users/maya',
  `GET /api/users/${me.username}`,
  'GET /api/users/lee',
  'GET /api/users/maya/followers',
  `GET /api/users/${me.username}/following`,
  'GET /api/users/maya/posts',
  'GET /api/posts/by-maya',
  'GET /api/posts/by-lee',
  'GET /api/posts',
];
const counts = () => Object.fromEntries(READS.map((read) => [read, sent(read)]));

describe('FollowButton', () => {
  it('shows Unfollow at once, keeps the answer, and reads again only what the follow changed', async () => {
    answerReads();
    const answer = held();
    server.use(
      http.put('/api/users/maya/follow', async () => {
        await answer.gate;
        return json({ following: true, followers: 1 });
      }),
    );
    const { queryClient } = renderApp(
      <>
        <Watching />
        <FollowButton username="maya" following={false} />
      </>,
    );
    await waitFor(() => expect(sent('GET /api/posts')).toBe(1));
    await waitFor(() => expect(Object.values(counts()).every((n) => n === 1)).toBe(true));
    await settled(queryClient);

    await userEvent.click(screen.getByRole('button', { name: COPY.follow.follow }));
    // Optimistic: flipped while the server has not answered yet.
    expect(screen.getByRole('button', { name: COPY.follow.unfollow }).getAttribute('aria-pressed')).toBe('true');
    expect(sent('PUT /api/users/maya/follow')).toBe(1);
    answer.release();

    await waitFor(() => expect(sent('GET /api/posts/by-maya')).toBe(2));
    await waitFor(() => expect(sent(`GET /api/users/${me.username}/following`)).toBe(2));
    expect(counts()).toEqual({
      'GET /api/users/maya': 2,
      [`GET /api/users/${me.username}`]: 2,
      'GET /api/users/lee': 1,
      'GET /api/users/maya/followers': 2,
      [`GET /api/users/${me.username}/following`]: 2,
      'GET /api/users/maya/posts': 1,
      'GET /api/posts/by-maya': 2,
      'GET /api/posts/by-lee': 1,
      'GET /api/posts': 1,
    });
    expect(screen.getByRole('button', { name: COPY.follow.unfollow })).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('goes back to Follow and says so when the request fails, reading nothing again', async () => {
    answerReads();
    server.use(http.put('/api/users/maya/follow', () => failure(500)));
    const { queryClient } = renderApp(
      <>
        <Watching />
        <FollowButton username="maya" following={false} />
      </>,
    );
    await waitFor(() => expect(Object.values(counts()).every((n) => n === 1)).toBe(true));
    await settled(queryClient);

    await userEvent.click(screen.getByRole('button', { name: COPY.follow.follow }));
    expect(await screen.findByText(COPY.follow.failed)).toBeTruthy();
    expect(screen.getByRole('button', { name: COPY.follow.follow, hidden: true }).getAttribute('aria-pressed')).toBe('false');
    expect(Object.values(counts()).every((n) => n === 1)).toBe(true);
  });

  it('asks a signed-out visitor to sign in, sending nothing', async () => {
    renderApp(<FollowButton username="maya" following={false} />, { user: null });
    await userEvent.click(screen.getByRole('button', { name: COPY.follow.follow }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(sent('PUT /api/users/maya/follow')).toBe(0);
  });
});

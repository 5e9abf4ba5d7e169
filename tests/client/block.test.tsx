// @vitest-environment happy-dom
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { useCurrentUser } from '../../src/client/api/current-user';
import { boardQueries } from '../../src/client/features/boards';
import { BlockButton } from '../../src/client/features/people/BlockButton';
import { blockedAccountsQuery, profileQueries } from '../../src/client/features/people';
import { postQueries } from '../../src/client/features/posts';
import { searchQueries } from '../../src/client/features/search';
import { sessionsQuery } from '../../src/client/features/settings/api/sessions';
import * as COPY from '../../src/shared/copy';
import { failure, http, json, me, renderApp, sent, server, settled } from './harness';

/** A block hides both people from each other everywhere; who is signed in and their sessions stay as they are. */
function Watching() {
  useCurrentUser();
  useQuery(profileQueries.detail('maya'));
  useInfiniteQuery(postQueries.feed());
  useQuery(searchQueries.users('dorm'));
  useQuery(boardQueries.saveTargets('p1'));
  useQuery(blockedAccountsQuery());
  useQuery(sessionsQuery());
  return null;
}

const READS = {
  profile: 'GET /api/users/maya',
  feed: 'GET /api/posts',
  search: 'GET /api/search/users?q=dorm',
  boards: 'GET /api/me/boards?post=p1',
  blocked: 'GET /api/me/blocks',
  me: 'GET /api/me',
  sessions: 'GET /api/me/sessions',
};
const counts = () => ({
  profile: sent(READS.profile),
  feed: sent(READS.feed),
  search: sent(READS.search),
  boards: sent(READS.boards),
  blocked: sent(READS.blocked),
  me: sent(READS.me),
  sessions: sent(READS.sessions),
});

function answerReads() {
  server.use(
    http.get('/api/users/maya', () =>
      json({
        user: { uid: 'u-maya', username: 'maya', icon: null, bio: '', followers: 0, following: 0, followedByMe: false, blockedByMe: false },
      }),
    ),
    http.get('/api/posts', () => json({ posts: [], nextCursor: null })),
    http.get('/api/search/users', () => json({ users: [] })),
    http.get('/api/me/boards', () => json({ boards: [] })),
    http.get('/api/me/blocks', () => json({ users: [] })),
    http.get('/api/me/sessions', () => json({ sessions: [] })),
    http.get('/api/me', () => json({ user: me })),
  );
}

/** The block button beside every read a block may change, once each read has its first answer. */
async function renderWatching() {
  const { queryClient } = renderApp(
    <>
      <Watching />
      <BlockButton username="maya" />
    </>,
  );
  await waitFor(() => expect(sent(READS.sessions)).toBe(1));
  await settled(queryClient);
}

async function block() {
  await userEvent.click(screen.getByRole('button', { name: COPY.block.action }));
  const dialog = await screen.findByRole('dialog', { name: COPY.block.title('maya') });
  await userEvent.click(within(dialog).getByRole('button', { name: COPY.block.confirm }));
  return dialog;
}

describe('BlockButton', () => {
  it('asks first, then blocks and reads again what a block hides, and nothing else', async () => {
    answerReads();
    server.use(http.put('/api/users/maya/block', () => json({ blocked: true })));
    await renderWatching();
    const before = counts();

    await block();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent('PUT /api/users/maya/block')).toBe(1);
    await waitFor(() => expect(sent(READS.blocked)).toBe(before.blocked + 1));
    expect(counts()).toEqual({
      ...before,
      profile: before.profile + 1,
      feed: before.feed + 1,
      search: before.search + 1,
      boards: before.boards + 1,
      blocked: before.blocked + 1,
    });
  });

  it('keeps the dialog open with the failure, reading nothing again', async () => {
    answerReads();
    server.use(http.put('/api/users/maya/block', () => failure(500)));
    await renderWatching();
    const before = counts();

    const dialog = await block();
    expect(await within(dialog).findByText(COPY.block.failed)).toBeTruthy();
    expect(counts()).toEqual(before);
  });

  it('is not offered on your own profile', () => {
    renderApp(<BlockButton username={me.username} />);
    expect(screen.queryByRole('button', { name: COPY.block.action })).toBeNull();
  });
});

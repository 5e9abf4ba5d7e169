// @vitest-environment happy-dom
import { useInfiniteQuery } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { boardQueries, SaveButton } from '../../src/client/features/boards';
import { postQueries } from '../../src/client/features/posts';
import type { SaveTarget } from '../../src/shared/api/boards';
import { BOARD_COPY } from '../../src/shared/boards-copy';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { failure, held, http, json, me, renderApp, sent, server } from './harness';

const board = (id: string, name: string, hasPost = false, count = 0): SaveTarget => ({
  id,
  name,
  slug: id,
  secret: false,
  count,
  cover: null,
  owner: { username: me.username, icon: null },
  hasPost,
});

/** The board list of the Boards tab and the feed, on screen beside the Save button. */
function Watching() {
  useInfiniteQuery(boardQueries.userBoards(me.username));
  useInfiniteQuery(postQueries.feed());
  return null;
}

function answerReads(boards: () => SaveTarget[]) {
  server.use(
    http.get('/api/me/boards', () => json({ boards: boards() })),
    http.get('/api/users/:username/boards', () => json({ boards: [], nextCursor: null })),
    http.get('/api/posts', () => json({ posts: [], nextCursor: null })),
  );
}

async function openPicker() {
  await userEvent.click(await screen.findByRole('button', { name: COPY.boards.save }));
  return screen.findByRole('dialog', { name: BOARD_COPY.pickerTitle });
}

/** Whether the picker's button for a board says it holds the post (aria-pressed). */
const pressed = (picker: HTMLElement, name: RegExp) => within(picker).getByRole('button', { name }).getAttribute('aria-pressed');

describe('Save picker', () => {
  it('marks the board at once, then closes, names it on the button and reads the boards again (only)', async () => {
    let onServer = [board('b1', 'Dorm ideas'), board('b2', 'Recipes')];
    answerReads(() => onServer);
    const answer = held();
    server.use(
      http.put('/api/boards/b2/posts/p1', async () => {
        await answer.gate;
        onServer = [board('b2', 'Recipes', true, 1), board('b1', 'Dorm ideas')];
        return json({ saved: true, count: 1 });
      }),
    );
    renderApp(
      <>
        <Watching />
        <SaveButton postId="p1" />
      </>,
    );
    const picker = await openPicker();
    const recipes = await within(picker).findByRole('button', { name: /Recipes/ });
    expect(recipes.getAttribute('aria-pressed')).toBe('false');
    await waitFor(() => expect(sent('GET /api/posts')).toBe(1));
    const boardsRead = sent('GET /api/me/boards?post=p1');
    const tabRead = sent(`GET /api/users/${me.username}/boards`);

    await userEvent.click(recipes);
    // Optimistic: saved here (and first) before the server answers.
    await waitFor(() => expect(pressed(picker, /Recipes/)).toBe('true'));
    expect(within(picker).getAllByRole('listitem')[0]!.textContent).toContain('Recipes');
    expect(within(picker).getByText(BOARD_COPY.savedHere)).toBeTruthy();
    answer.release();

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByRole('button', { name: COPY.boards.saved('Recipes') })).toBeTruthy();
    await waitFor(() => expect(sent('GET /api/me/boards?post=p1')).toBe(boardsRead + 1));
    await waitFor(() => expect(sent(`GET /api/users/${me.username}/boards`)).toBe(tabRead + 1));
    expect(sent('GET /api/posts')).toBe(1);
  });

  it('puts the board back as it was and says why when the save fails', async () => {
    // The read after the failure is held: what shows meanwhile is the rollback, not the refetch.
    const refetch = held();
    let reads = 0;
    server.use(
      http.get('/api/me/boards', async () => {
        if (reads++ > 0) await refetch.gate;
        return json({ boards: [board('b1', 'Dorm ideas'), board('b2', 'Recipes')] });
      }),
    );
    const answer = held();
    server.use(
      http.put('/api/boards/b2/posts/p1', async () => {
        await answer.gate;
        return failure(500);
      }),
    );
    renderApp(<SaveButton postId="p1" />);
    const picker = await openPicker();
    await userEvent.click(await within(picker).findByRole('button', { name: /Recipes/ }));
    await waitFor(() => expect(pressed(picker, /Recipes/)).toBe('true'));
    answer.release();

    // Rolled back while the read after the failure is still held.
    await waitFor(() => expect(pressed(picker, /Recipes/)).toBe('false'));
    expect(within(picker).getAllByRole('listitem')[0]!.textContent).toContain('Dorm ideas');
    expect(screen.getByRole('button', { name: COPY.boards.save, hidden: true })).toBeTruthy();
    expect(reads).toBeGreaterThan(1);
    refetch.release();
    expect(await within(picker).findByText(ERRORS.GENERIC)).toBeTruthy();
  });
});

// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ActivityPage } from '../../src/client/features/activity/ActivityPage';
import { NotificationSettingsPage } from '../../src/client/features/activity/NotificationSettingsPage';
import { ActivityBell } from '../../src/client/ui/ActivityBell';
import type { ActivityGroup, NotificationPreferences } from '../../src/shared/api/activity';
import { ACTIVITY_COPY, activityText, TOPIC_COPY } from '../../src/shared/activity-copy';
import { failure, held, http, json, me, renderApp, sent, server, settled } from './harness';

const group = (id: string, extra: Partial<ActivityGroup> = {}): ActivityGroup => ({
  id,
  kind: 'follow',
  actors: [{ username: 'maya.k', icon: null }],
  count: 1,
  unread: true,
  at: new Date(Date.now() - 5 * 60_000).toISOString(),
  post: null,
  board: null,
  invite: null,
  reason: null,
  until: null,
  outcome: null,
  ...extra,
});

const board = { id: 'b1', name: '<b>Dorm food</b>', slug: 'dorm-food', owner: 'priya_k', secret: false };
const invite = group('g-invite', { kind: 'board_invite', actors: [{ username: 'priya_k', icon: null }], board, invite: 'pending' });

/** GET /api/activity answering `pages` in turn (by cursor), and the unread count. */
function answerActivity(pages: ActivityGroup[][], unread = 1) {
  server.use(
    http.get('/api/activity', ({ request }) => {
      const index = Number(new URL(request.url).searchParams.get('cursor') ?? 0);
      return json({ groups: pages[index] ?? [], nextCursor: index + 1 < pages.length ? String(index + 1) : null });
    }),
    http.get('/api/activity/unread', () => json({ unread })),
  );
}

const rows = () => within(screen.getByRole('list', { name: ACTIVITY_COPY.title })).getAllByRole('listitem');

describe('/activity', () => {
  it('shows each group as its sentence (text, never markup), when, and whether it is unread; a row leads where it is about', async () => {
    const removed = group('g-removed', { kind: 'post_removed', actors: [], unread: false, reason: '<i>spam</i>' });
    const save = group('g-save', { kind: 'save', unread: false, post: { id: 'p1', thumbnail: '/media/p1-400.webp' }, board });
    answerActivity([[group('g-follow', { count: 4, actors: [{ username: 'maya.k', icon: null }] }), save, removed]]);
    const { container } = renderApp(<ActivityPage />, { route: '/activity' });

    expect(await screen.findByRole('heading', { level: 1, name: ACTIVITY_COPY.title })).toBeTruthy();
    await screen.findByText('maya.k and 3 others followed you');
    const [follow, saved, notice] = rows();
    expect(within(follow!).getByRole('link').getAttribute('href')).toBe(`/@${me.username}/followers`);
    expect(within(follow!).getByText(ACTIVITY_COPY.unread)).toBeTruthy();
    expect(within(follow!).getByText('5 minutes ago')).toBeTruthy();
    expect(within(saved!).getByRole('link').getAttribute('href')).toBe('/post/p1');
    expect(within(saved!).queryByText(ACTIVITY_COPY.unread)).toBeNull();
    expect(saved!.querySelector('img[src="/media/p1-400.webp"]')).toBeTruthy();
    expect(within(saved!).getByText('maya.k saved your post to <b>Dorm food</b>')).toBeTruthy();
    // Nothing to open: no link; the moderators' reason is text.
    expect(within(notice!).queryByRole('link')).toBeNull();
    expect(within(notice!).getByText(activityText(removed))).toBeTruthy();
    expect(container.querySelector('b, i')).toBeNull();
  });

  it('marks a group read when its row is opened, and everything with Mark all as read, which is off with nothing unread', async () => {
    answerActivity([[group('g1'), group('g2')]], 2);
    const reads: unknown[] = [];
    server.use(
      http.post('/api/activity/read', async ({ request }) => {
        const body = (await request.json()) as { group?: string };
        reads.push(body);
        return json({ unread: body.group ? 1 : 0 });
      }),
    );
    renderApp(<ActivityPage />, { route: '/activity' });
    const markAll = await screen.findByRole<HTMLButtonElement>('button', { name: ACTIVITY_COPY.markAllRead });
    await waitFor(() => expect(rows()).toHaveLength(2));
    await waitFor(() => expect(markAll.disabled).toBe(false));

    await userEvent.click(within(rows()[0]!).getByRole('link'));
    await waitFor(() => expect(reads).toEqual([{ group: 'g1' }]));
    expect(within(rows()[0]!).queryByText(ACTIVITY_COPY.unread)).toBeNull();
    expect(within(rows()[1]!).getByText(ACTIVITY_COPY.unread)).toBeTruthy();

    await userEvent.click(markAll);
    await waitFor(() => expect(reads).toEqual([{ group: 'g1' }, {}]));
    expect(screen.queryByText(ACTIVITY_COPY.unread)).toBeNull();
    await waitFor(() => expect(markAll.disabled).toBe(true));
  });

  it('answers an invitation in its row: Join shows the board joined and reads it; Decline removes the row', async () => {
    const second = { ...invite, id: 'g-invite-2', board: { ...board, id: 'b2', name: 'Study spots', slug: 'study-spots' } };
    answerActivity([[invite, second]]);
    const reads: unknown[] = [];
    server.use(
      http.post('/api/boards/b1/join', () => json({ members: [] })),
      http.delete(`/api/boards/b2/members/${me.username}`, () => json({ members: [] })),
      http.post('/api/activity/read', async ({ request }) => {
        reads.push(await request.json());
        return json({ unread: 1 });
      }),
    );
    renderApp(<ActivityPage />, { route: '/activity' });
    await waitFor(() => expect(rows()).toHaveLength(2));

    await userEvent.click(within(rows()[0]!).getByRole('button', { name: ACTIVITY_COPY.join }));
    const joined = await within(rows()[0]!).findByText(ACTIVITY_COPY.joined, { exact: false });
    expect(within(joined).getByRole('link', { name: board.name }).getAttribute('href')).toBe('/@priya_k/boards/dorm-food');
    // The pressed button is gone: the keyboard is on the board's link, not lost to the page.
    await waitFor(() => expect(document.activeElement).toBe(within(joined).getByRole('link', { name: board.name })));
    expect(within(rows()[0]!).queryByRole('button')).toBeNull();
    // An invitation answered is read: the server reads it with the join, no second request.
    expect(reads).toEqual([]);
    expect(within(rows()[0]!).queryByText(ACTIVITY_COPY.unread)).toBeNull();

    await userEvent.click(within(rows()[1]!).getByRole('button', { name: ACTIVITY_COPY.decline }));
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(sent(`DELETE /api/boards/b2/members/${me.username}`)).toBe(1);
    // The declined row is gone: the keyboard is on the row beside it.
    expect(rows()[0]!.contains(document.activeElement)).toBe(true);
  });

  it('shows more with the next cursor, and says so when nothing happened yet or the list cannot be read', async () => {
    answerActivity([[group('g1')], [group('g2', { actors: [{ username: 'li.wei', icon: null }] })]]);
    renderApp(<ActivityPage />, { route: '/activity' });
    await userEvent.click(await screen.findByRole('button', { name: ACTIVITY_COPY.more }));
    await screen.findByText('li.wei followed you');
    expect(sent('GET /api/activity?cursor=1')).toBe(1);
    expect(screen.queryByRole('button', { name: ACTIVITY_COPY.more })).toBeNull();
  });

  it('says when there is nothing yet, and when the list could not be read, with Try again', async () => {
    let fail = true;
    server.use(http.get('/api/activity', () => (fail ? failure() : json({ groups: [], nextCursor: null }))));
    renderApp(<ActivityPage />, { route: '/activity' });
    expect((await screen.findByRole('alert')).textContent).toContain(ACTIVITY_COPY.loadFailed);
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: ACTIVITY_COPY.retry }));
    expect(await screen.findByText(ACTIVITY_COPY.empty)).toBeTruthy();
  });
});

describe('the bell', () => {
  it('is a link to /activity named with the count, its badge hidden at 0 and "99+" past 99', async () => {
    server.use(http.get('/api/activity/unread', () => json({ unread: 150 })));
    const view = renderApp(<ActivityBell />);
    const bell = await screen.findByRole('link', { name: ACTIVITY_COPY.bell(150) });
    expect(bell.getAttribute('href')).toBe('/activity');
    expect(bell.textContent).toContain('99+');
    view.unmount();

    server.use(http.get('/api/activity/unread', () => json({ unread: 0 })));
    renderApp(<ActivityBell />);
    const quiet = await screen.findByRole('link', { name: ACTIVITY_COPY.bell(0) });
    expect(quiet.textContent).toBe(ACTIVITY_COPY.bell(0));
  });

  it('is not there for a signed-out visitor, who is not asked about', async () => {
    const { queryClient } = renderApp(<ActivityBell />, { user: null });
    // A bell that asked would be fetching from its first render on: waited for, it would be counted.
    await settled(queryClient);
    expect(screen.queryByRole('link')).toBeNull();
    expect(sent('GET /api/activity/unread')).toBe(0);
  });
});

const preferences = (extra: Partial<NotificationPreferences> = {}): NotificationPreferences => ({
  settings: {
    follows: { app: true, push: false },
    saves: { app: true, push: false },
    invites: { app: true, push: false },
    boards: { app: true, push: false },
    moderation: { app: true, push: false },
  },
  devices: [],
  publicKey: 'BOr5yXm3fTjWJDMR6_cTLsTDfDXAbd7aBjsLFbSjuR1dNp8W1ReU6kD5eXh1TZSwNpK7mQCFv3AkqA2qgtbnB1I',
  ...extra,
});

describe('Settings → Notifications', () => {
  it('saves a switch as it changes, and puts it back when the save fails', async () => {
    server.use(http.get('/api/me/notifications', () => json(preferences())));
    const answer = held();
    const sentBodies: unknown[] = [];
    server.use(
      http.put('/api/me/notifications', async ({ request }) => {
        sentBodies.push(await request.json());
        await answer.gate;
        return failure();
      }),
    );
    renderApp(<NotificationSettingsPage />, { route: '/settings/notifications' });
    const follows = await screen.findByRole('group', { name: TOPIC_COPY.follows.label });
    const inApp = within(follows).getByRole<HTMLInputElement>('checkbox', { name: ACTIVITY_COPY.inApp });
    expect(inApp.checked).toBe(true);

    await userEvent.click(inApp);
    await waitFor(() => expect(inApp.checked).toBe(false));
    expect(sentBodies).toEqual([{ ...preferences().settings, follows: { app: false, push: false } }]);
    answer.release();
    expect((await screen.findByText(ACTIVITY_COPY.saveFailed)).getAttribute('role')).toBe('alert');
    expect(inApp.checked).toBe(true);
  });

  it('keeps the Push switches off until a device has push, and asks the browser nothing on load', async () => {
    server.use(http.get('/api/me/notifications', () => json(preferences())));
    renderApp(<NotificationSettingsPage />, { route: '/settings/notifications' });
    const saves = await screen.findByRole('group', { name: TOPIC_COPY.saves.label });
    const push = within(saves).getByRole<HTMLInputElement>('checkbox', { name: ACTIVITY_COPY.push });
    expect(push.disabled).toBe(true);
    expect(push.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(push.getAttribute('aria-describedby')!)?.textContent).toBe(ACTIVITY_COPY.pushNeedsDevice);
    expect(screen.getByText(ACTIVITY_COPY.noDevices)).toBeTruthy();
  });

  it('lists the devices with push, each with Remove', async () => {
    const devices = [{ id: 'a'.repeat(32), label: 'Firefox on Windows', createdAt: '2026-11-20T10:00:00.000Z' }];
    server.use(
      http.get('/api/me/notifications', () => json(preferences({ devices }))),
      http.delete(`/api/me/push-devices/${'a'.repeat(32)}`, () => json(preferences())),
    );
    renderApp(<NotificationSettingsPage />, { route: '/settings/notifications' });
    await screen.findByText('Firefox on Windows');
    expect(screen.getByText(ACTIVITY_COPY.deviceAdded('Nov 20, 2026'))).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: ACTIVITY_COPY.removeDeviceLabel('Firefox on Windows') }));
    expect(await screen.findByText(ACTIVITY_COPY.noDevices)).toBeTruthy();
  });
});

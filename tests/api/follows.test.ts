import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { FollowState, Profile, UserPage, UserListItem } from '../../src/shared/api/users.js';
import { FOLLOW_LIST_PAGE_SIZE } from '../../src/shared/limits.js';
import { signUp } from '../helpers/accounts.js';
import { at, edgesOf, expectError, follow, get, insertFollows, insertUsers, query, unfollow, type Edge } from '../helpers/people.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Follows are directed edges (design.md, "Where the spec is silent or wrong"): B following A
 * never stops A following B. PUT/DELETE /api/users/:username/follow are idempotent and answer
 * the state afterwards; the lists show the users on one side of someone's edges, newest edge
 * first, each with that user's own follower count.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Account = Awaited<ReturnType<typeof signUp>>;
const edge = (follower: { uid: string }, target: { uid: string }) => `${follower.uid}>${target.uid}`;
const state = (response: { json: () => unknown }) => response.json() as FollowState;

/** Fresh accounts, signed up through the API (in parallel: password hashing dominates). */
const people = (count: number): Promise<Account[]> => Promise.all(Array.from({ length: count }, () => signUp(t.app)));

async function profile(username: string, cookie?: string): Promise<Profile> {
  const response = await get(t.app, API.user(username), cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ user: Profile }>().user;
}

async function listPage(side: 'followers' | 'following', username: string, cursor?: string): Promise<UserPage> {
  const base = side === 'followers' ? API.followers(username) : API.following(username);
  const response = await get(t.app, cursor === undefined ? base : `${base}?cursor=${encodeURIComponent(cursor)}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<UserPage>();
}

/** Follows every page of a list to its end; fails if it never ends. */
async function wholeList(side: 'followers' | 'following', username: string) {
  const pages: UserPage[] = [];
  let cursor: string | undefined;
  for (let i = 0; i < 10; i += 1) {
    const page = await listPage(side, username, cursor);
    pages.push(page);
    if (page.nextCursor === null) return pages;
    cursor = page.nextCursor;
  }
  throw new Error('list never ended');
}

// ---------------------------------------------------------------- follow / unfollow

describe('PUT and DELETE /api/users/:username/follow', () => {
  it('needs a signed-in user: 401 and no edge, for follow and unfollow alike', async () => {
    const [a] = await people(1);
    expectError(await follow(t.app, a!.username), 401, 'NOT_SIGNED_IN');
    expectError(await unfollow(t.app, a!.username), 401, 'NOT_SIGNED_IN');
    // A session cookie that matches no session is nobody.
    expectError(await follow(t.app, a!.username, 'session=not-a-real-token'), 401, 'NOT_SIGNED_IN');
    expect(await edgesOf(t.database, a!.uid)).toEqual([]);
  });

  it('follows: answers {following: true, followers: 1}, stores B>A and shows on both profiles', async () => {
    const [a, b] = await people(2);
    const response = await follow(t.app, a!.username, b!.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ following: true, followers: 1 });
    expect(await edgesOf(t.database, a!.uid, b!.uid)).toEqual([edge(b!, a!)]);

    expect(await profile(a!.username, b!.cookie)).toMatchObject({ followers: 1, following: 0, followedByMe: true });
    expect(await profile(b!.username)).toMatchObject({ followers: 0, following: 1, followedByMe: false });
  });

  it('is idempotent: following twice keeps exactly one edge', async () => {
    const [a, b] = await people(2);
    expect(state(await follow(t.app, a!.username, b!.cookie))).toEqual({ following: true, followers: 1 });
    expect(state(await follow(t.app, a!.username, b!.cookie))).toEqual({ following: true, followers: 1 });
    expect(await edgesOf(t.database, a!.uid, b!.uid)).toEqual([edge(b!, a!)]);
  });

  it("accepts the route's '@' and any letter case for the target", async () => {
    const [a, b] = await people(2);
    expect(state(await follow(t.app, `@${a!.username.toUpperCase()}`, b!.cookie))).toEqual({ following: true, followers: 1 });
    expect(await edgesOf(t.database, a!.uid)).toEqual([edge(b!, a!)]);
    expect(state(await unfollow(t.app, `@${a!.username}`, b!.cookie))).toEqual({ following: false, followers: 0 });
    expect(await edgesOf(t.database, a!.uid)).toEqual([]);
  });

  it('following yourself does nothing: {following: false}, no self-edge', async () => {
    const [a, b] = await people(2);
    await follow(t.app, a!.username, b!.cookie);
    const response = await follow(t.app, a!.username, a!.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ following: false, followers: 1 });
    const self = await query(t.database, 'SELECT 1 FROM follows WHERE follower_id = target_id');
    expect(self).toEqual([]);
    expect(await edgesOf(t.database, a!.uid)).toEqual([edge(b!, a!)]);
    // Unfollowing yourself is just as harmless.
    expect(state(await unfollow(t.app, a!.username, a!.cookie))).toEqual({ following: false, followers: 1 });
    expect(await edgesOf(t.database, a!.uid)).toEqual([edge(b!, a!)]);
    expect(await profile(a!.username, a!.cookie)).toMatchObject({ followers: 1, following: 0, followedByMe: false });
  });

  it('is a directed edge: when B follows A, A can still follow B back', async () => {
    const [a, b] = await people(2);
    expect(state(await follow(t.app, a!.username, b!.cookie))).toEqual({ following: true, followers: 1 });
    expect(state(await follow(t.app, b!.username, a!.cookie))).toEqual({ following: true, followers: 1 });
    expect(await edgesOf(t.database, a!.uid, b!.uid)).toEqual([edge(a!, b!), edge(b!, a!)].sort());
    expect(await profile(a!.username, b!.cookie)).toMatchObject({ followers: 1, following: 1, followedByMe: true });
    expect(await profile(b!.username, a!.cookie)).toMatchObject({ followers: 1, following: 1, followedByMe: true });
  });

  it('unfollow deletes only the matching edge, and is idempotent', async () => {
    const [a, b, c] = await people(3);
    await follow(t.app, a!.username, b!.cookie); // B>A
    await follow(t.app, b!.username, a!.cookie); // A>B (the reverse edge)
    await follow(t.app, a!.username, c!.cookie); // C>A (someone else's edge to the same target)
    await follow(t.app, c!.username, b!.cookie); // B>C (the same follower, another target)

    const first = await unfollow(t.app, a!.username, b!.cookie);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ following: false, followers: 1 });
    const left = [edge(a!, b!), edge(c!, a!), edge(b!, c!)].sort();
    expect(await edgesOf(t.database, a!.uid, b!.uid, c!.uid)).toEqual(left);

    expect(state(await unfollow(t.app, a!.username, b!.cookie))).toEqual({ following: false, followers: 1 });
    expect(await edgesOf(t.database, a!.uid, b!.uid, c!.uid)).toEqual(left);
  });

  it('unfollowing someone you never followed answers {following: false} and changes nothing', async () => {
    const [a, b, c] = await people(3);
    await follow(t.app, a!.username, c!.cookie);
    const response = await unfollow(t.app, a!.username, b!.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ following: false, followers: 1 });
    expect(await edgesOf(t.database, a!.uid, b!.uid)).toEqual([edge(c!, a!)]);
  });

  it('an unknown user is a 404 for follow and unfollow, and nothing is stored', async () => {
    const [b] = await people(1);
    expectError(await follow(t.app, 'nobody_here', b!.cookie), 404, 'USER_NOT_FOUND');
    expectError(await unfollow(t.app, 'nobody_here', b!.cookie), 404, 'USER_NOT_FOUND');
    expect(await edgesOf(t.database, b!.uid)).toEqual([]);
  });

  it('an overlong username is a 400, not a lookup', async () => {
    const [b] = await people(1);
    expectError(await follow(t.app, 'a'.repeat(65), b!.cookie), 400, 'BAD_REQUEST');
  });

  it('five follows at once still make exactly one edge (the primary key decides)', async () => {
    const [a, b] = await people(2);
    const responses = await Promise.all(Array.from({ length: 5 }, () => follow(t.app, a!.username, b!.cookie)));
    for (const response of responses) {
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ following: true, followers: 1 });
    }
    const rows = await query<{ n: number }>(t.database, 'SELECT count(*)::int AS n FROM follows WHERE target_id = $1', [a!.uid]);
    expect(rows).toEqual([{ n: 1 }]);
  });

  it('follow and unfollow racing each other leave a consistent state', async () => {
    const [a, b] = await people(2);
    const responses = await Promise.all([
      follow(t.app, a!.username, b!.cookie),
      unfollow(t.app, a!.username, b!.cookie),
      follow(t.app, a!.username, b!.cookie),
      unfollow(t.app, a!.username, b!.cookie),
    ]);
    for (const response of responses) expect(response.statusCode, response.body).toBe(200);
    const edges = await edgesOf(t.database, a!.uid);
    expect(edges.length).toBeLessThanOrEqual(1);
    // Whatever won, the profile agrees with the table.
    expect(await profile(a!.username, b!.cookie)).toMatchObject({ followers: edges.length, followedByMe: edges.length === 1 });
  });

  it('nobody can follow or unfollow on behalf of someone else: the edge is always the signed-in user’s', async () => {
    const [a, b, c, d] = await people(4);
    await follow(t.app, c!.username, a!.cookie); // A>C, which B must not be able to remove
    // B signs the requests but names A in every way a client might try.
    const sneaky = { follower_uid: a!.uid, followerId: a!.uid, follower: a!.username, uid: a!.uid };
    const forge = (method: 'PUT' | 'DELETE', target: string) =>
      t.app.inject({
        method,
        url: `${API.follow(target)}?follower_uid=${a!.uid}&as=${a!.username}`,
        payload: sneaky,
        headers: { cookie: b!.cookie },
      });
    const all = () => edgesOf(t.database, a!.uid, b!.uid, c!.uid, d!.uid);

    const put = await forge('PUT', d!.username);
    expect(put.statusCode, put.body).toBeLessThan(500);
    // Either refused, or B (never A) now follows D.
    expect((await all()).filter((e) => e !== edge(b!, d!))).toEqual([edge(a!, c!)]);

    const removal = await forge('DELETE', c!.username);
    expect(removal.statusCode, removal.body).toBeLessThan(500);
    expect(await all()).toContain(edge(a!, c!));
  });
});

// ---------------------------------------------------------------- followers / following lists

describe('GET /api/users/:username/followers and /following', () => {
  it('rows are {uid, username, icon, followers} with each row user’s own follower count, newest edge first', async () => {
    const [a, b, c, d] = await people(4);
    // Made one after another, so each edge is newer than the one before.
    await follow(t.app, a!.username, b!.cookie); // B>A
    await follow(t.app, a!.username, c!.cookie); // C>A
    await follow(t.app, a!.username, d!.cookie); // D>A
    await follow(t.app, b!.username, c!.cookie); // C>B
    await follow(t.app, b!.username, d!.cookie); // D>B
    await follow(t.app, d!.username, a!.cookie); // A>D
    // D has an icon: the row shows its URL.
    await query(t.database, 'UPDATE users SET icon_key = $2 WHERE id = $1', [d!.uid, `profiles/${d!.uid}/0a1b2c3d`]);
    // Followers: A 3, B 2, C 0, D 1.

    const followersOfA = await listPage('followers', a!.username);
    expect(followersOfA).toEqual({
      users: [
        { uid: d!.uid, username: d!.username, icon: `/media/profiles/${d!.uid}/0a1b2c3d-320.webp`, followers: 1 },
        { uid: c!.uid, username: c!.username, icon: null, followers: 0 },
        { uid: b!.uid, username: b!.username, icon: null, followers: 2 },
      ],
      nextCursor: null,
    });
    for (const row of followersOfA.users) expect(Object.keys(row).sort()).toEqual(['followers', 'icon', 'uid', 'username']);

    expect(await listPage('following', c!.username)).toEqual({
      users: [
        { uid: b!.uid, username: b!.username, icon: null, followers: 2 },
        { uid: a!.uid, username: a!.username, icon: null, followers: 3 },
      ],
      nextCursor: null,
    });
    expect((await listPage('following', a!.username)).users.map((row) => row.uid)).toEqual([d!.uid]);
    expect((await listPage('followers', d!.username)).users.map((row) => [row.uid, row.followers])).toEqual([[a!.uid, 3]]);
    expect((await listPage('followers', b!.username)).users.map((row) => row.uid)).toEqual([d!.uid, c!.uid]);

    // '@' and letter case resolve to the same user.
    expect(await listPage('followers', `@${a!.username.toUpperCase()}`)).toEqual(followersOfA);
    // An unfollow takes the row away at once.
    await unfollow(t.app, a!.username, c!.cookie);
    expect((await listPage('followers', a!.username)).users.map((row) => row.uid)).toEqual([d!.uid, b!.uid]);
  });

  it('someone with no edges has two empty lists', async () => {
    const [a] = await people(1);
    expect(await listPage('followers', a!.username)).toEqual({ users: [], nextCursor: null });
    expect(await listPage('following', a!.username)).toEqual({ users: [], nextCursor: null });
  });

  it(`pages ${FOLLOW_LIST_PAGE_SIZE} at a time through 120 rows: no duplicates, no gaps, exact order and counts`, async () => {
    expect(FOLLOW_LIST_PAGE_SIZE).toBe(100);
    const [star, fan, exact] = await insertUsers(t.database, 3, 'pgx');
    const crowd = await insertUsers(t.database, 120, 'crd');
    const edges: Edge[] = [];
    crowd.forEach((user, i) => {
      // Groups of 7 share a timestamp, so the page boundary (row 100) falls inside a tie and the
      // id decides the order there.
      const time = at(Math.floor(i / 7));
      edges.push({ follower: user.id, target: star!.id, at: time }); // crowd > star
      edges.push({ follower: fan!.id, target: user.id, at: time }); // fan > crowd
      if (i % 4 === 0) edges.push({ follower: star!.id, target: user.id, at: time }); // star > some of the crowd
      if (i < 100) edges.push({ follower: user.id, target: exact!.id, at: time }); // exactly one page's worth
    });
    await insertFollows(t.database, edges);

    // Newest edge first, then the higher id first among equal times.
    const expected: UserListItem[] = crowd
      .map((user, i) => ({ user, i }))
      .sort((x, y) => Math.floor(y.i / 7) - Math.floor(x.i / 7) || (x.user.id < y.user.id ? 1 : -1))
      .map(({ user, i }) => ({ uid: user.id, username: user.username, icon: null, followers: 1 + (i % 4 === 0 ? 1 : 0) }));

    for (const [side, owner] of [
      ['followers', star!],
      ['following', fan!],
    ] as const) {
      const pages = await wholeList(side, owner.username);
      expect(pages.map((page) => page.users.length)).toEqual([100, 20]);
      expect(pages[0]!.nextCursor).toEqual(expect.any(String));
      expect(pages[1]!.nextCursor).toBeNull();
      const rows = pages.flatMap((page) => page.users);
      expect(new Set(rows.map((row) => row.uid)).size).toBe(120);
      expect(rows).toEqual(expected);
    }

    // Exactly one full page: no cursor to a page that would be empty.
    const one = await listPage('followers', exact!.username);
    expect(one.users).toHaveLength(100);
    expect(one.nextCursor).toBeNull();

    // The counts on the profiles agree with the lists.
    expect(await profile(star!.username)).toMatchObject({ followers: 120, following: 30 });
    expect(await profile(fan!.username)).toMatchObject({ followers: 0, following: 120 });
  });

  it('an unknown user is a 404 on both lists', async () => {
    expectError(await get(t.app, API.followers('nobody_here')), 404, 'USER_NOT_FOUND');
    expectError(await get(t.app, API.following('nobody_here')), 404, 'USER_NOT_FOUND');
    expectError(await get(t.app, API.followers('a'.repeat(65))), 400, 'BAD_REQUEST');
  });

  it('a cursor that is not one of ours is a 400 on both lists', async () => {
    const [a] = await people(1);
    const bad = [
      'not-a-cursor',
      Buffer.from('{"x":1}').toString('base64url'),
      Buffer.from(JSON.stringify(['yesterday', 'id'])).toString('base64url'),
      Buffer.from(JSON.stringify([1, 2])).toString('base64url'),
      'x'.repeat(201),
    ];
    for (const base of [API.followers(a!.username), API.following(a!.username)]) {
      for (const cursor of bad) {
        expectError(await get(t.app, `${base}?cursor=${encodeURIComponent(cursor)}`), 400, 'BAD_REQUEST');
      }
      // Unknown query parameters are refused too (a typo never silently means "first page").
      expectError(await get(t.app, `${base}?after=abc`), 400, 'BAD_REQUEST');
    }
  });
});

describe('follower and following counts (kept on the user row by triggers)', () => {
  /** Every user's stored counts next to the counts of their edges. */
  async function mismatches() {
    return query<{ id: string }>(
      t.database,
      `SELECT u.id FROM users u
       WHERE u.follower_count <> (SELECT count(*) FROM follows WHERE target_id = u.id)
          OR u.following_count <> (SELECT count(*) FROM follows WHERE follower_id = u.id)`,
    );
  }

  it('match the edges after racing follows, unfollows and follow-backs among six people', async () => {
    const group = await people(6);
    const calls = [];
    for (let round = 0; round < 3; round++) {
      for (const a of group) {
        for (const b of group) {
          if (a === b) continue;
          calls.push(
            (round + a.username.length + b.username.length) % 3 === 0
              ? unfollow(t.app, b.username, a.cookie)
              : follow(t.app, b.username, a.cookie),
          );
        }
      }
    }
    const responses = await Promise.all(calls);
    expect(responses.every((response) => response.statusCode === 200)).toBe(true);
    expect(await mismatches()).toEqual([]);
    for (const person of group) {
      const shown = await profile(person.username);
      const [edges] = await query<{ followers: number; following: number }>(
        t.database,
        `SELECT (SELECT count(*)::int FROM follows WHERE target_id = $1) AS followers,
                (SELECT count(*)::int FROM follows WHERE follower_id = $1) AS following`,
        [person.uid],
      );
      expect({ followers: shown.followers, following: shown.following }).toEqual(edges);
    }
  });

  it('match after a bulk insert, a bulk delete and a deleted account', async () => {
    const bulk = await insertUsers(t.database, 40, 'cnt');
    const edges: Edge[] = bulk.flatMap((a, i) =>
      bulk.filter((_, j) => j !== i && (i * 7 + j) % 5 === 0).map((b) => ({ follower: a.id, target: b.id, at: at(i) })),
    );
    await insertFollows(t.database, edges);
    expect(await mismatches()).toEqual([]);
    await query(t.database, `DELETE FROM follows WHERE follower_id = ANY ($1::text[])`, [bulk.slice(0, 10).map((user) => user.id)]);
    expect(await mismatches()).toEqual([]);
    // Deleting an account cascades to its edges; everyone else's counts follow.
    await query(t.database, `DELETE FROM users WHERE id = $1`, [bulk[20]!.id]);
    expect(await mismatches()).toEqual([]);
    const [total] = await query<{ followers: number; edges: number }>(
      t.database,
      `SELECT (SELECT sum(follower_count)::int FROM users WHERE id LIKE 'cnt%') AS followers,
              (SELECT count(*)::int FROM follows WHERE target_id LIKE 'cnt%') AS edges`,
    );
    expect(total!.followers).toBe(total!.edges);
    expect(total!.edges).toBeGreaterThan(0);
  });
});

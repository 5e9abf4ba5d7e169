import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { BlockedAccounts, Profile } from '../../src/shared/api/users.js';
import { signUp } from '../helpers/accounts.js';
import { edgesOf, expectError, follow, get, query } from '../helpers/people.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';

/**
 * Blocks (issue 17 point 4): PUT/DELETE /api/users/:username/block and GET /api/me/blocks.
 * What a block hides on every read path is tests/api/visibility.test.ts.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ rateLimits: { ...TEST_RATE_LIMITS, blocksPerUser: 6 } });
});
afterAll(async () => {
  await t?.close();
});

type Account = Awaited<ReturnType<typeof signUp>>;
const people = (count: number): Promise<Account[]> => Promise.all(Array.from({ length: count }, () => signUp(t.app)));

const block = (username: string, cookie?: string) =>
  t.app.inject({ method: 'PUT', url: API.block(username), headers: cookie ? { cookie } : {} });
const unblock = (username: string, cookie?: string) =>
  t.app.inject({ method: 'DELETE', url: API.block(username), headers: cookie ? { cookie } : {} });

async function profile(username: string, cookie?: string): Promise<Profile> {
  const response = await get(t.app, API.user(username), cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ user: Profile }>().user;
}

async function blockedList(cookie: string): Promise<string[]> {
  const response = await get(t.app, API.blocks, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<BlockedAccounts>().users.map((user) => user.username);
}

const blockRows = async (uid: string) => query(t.database, 'SELECT 1 FROM blocks WHERE blocker_id = $1 OR blocked_id = $1', [uid]);

describe('PUT /api/users/:username/block', () => {
  it('blocks: the follows end both ways in the same write, with both counts; idempotent', async () => {
    const [alice, bob, carol] = await people(3);
    for (const [fan, star] of [
      [alice, bob],
      [bob, alice],
      [carol, alice],
    ] as const)
      expect((await follow(t.app, star!.username, fan!.cookie)).statusCode).toBe(200);
    // Read (and cache) the counts first: the block must make them stale.
    expect(await profile(alice!.username)).toMatchObject({ followers: 2, following: 1 });
    expect(await profile(bob!.username)).toMatchObject({ followers: 1, following: 1 });

    const response = await block(bob!.username, alice!.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ blocked: true });
    expect(await edgesOf(t.database, alice!.uid, bob!.uid)).toEqual([`${carol!.uid}>${alice!.uid}`]);
    expect(await profile(alice!.username)).toMatchObject({ followers: 1, following: 0 });
    expect(await profile(bob!.username)).toMatchObject({ followers: 0, following: 0 });
    expect(await profile(bob!.username, alice!.cookie)).toMatchObject({ blockedByMe: true, followedByMe: false });

    expect((await block(bob!.username, alice!.cookie)).json()).toEqual({ blocked: true });
    expect(await blockRows(alice!.uid)).toHaveLength(1);
    expect(await blockedList(alice!.cookie)).toEqual([bob!.username]);
  });

  it('neither can follow the other afterwards: the blocker is told to unblock, to the blocked the blocker does not exist', async () => {
    const [alice, bob] = await people(2);
    expect((await block(bob!.username, alice!.cookie)).statusCode).toBe(200);
    expectError(await follow(t.app, bob!.username, alice!.cookie), 409, 'UNBLOCK_TO_FOLLOW');
    expectError(await follow(t.app, alice!.username, bob!.cookie), 404, 'USER_NOT_FOUND');
    expectError(await get(t.app, API.user(alice!.username), bob!.cookie), 404, 'USER_NOT_FOUND');
    // Nor can the blocked block back, or learn the blocker exists that way.
    expectError(await block(alice!.username, bob!.cookie), 404, 'USER_NOT_FOUND');
    expect(await edgesOf(t.database, alice!.uid, bob!.uid)).toEqual([]);
  });

  it('refuses: signed out (401), yourself (400), nobody (404), bad usernames (a clear 4xx); nothing written', async () => {
    const [alice] = await people(1);
    expectError(await block(alice!.username), 401, 'NOT_SIGNED_IN');
    expectError(await block(alice!.username, alice!.cookie), 400, 'CANNOT_BLOCK_YOURSELF');
    expectError(await block(`@${alice!.username.toUpperCase()}`, alice!.cookie), 400, 'CANNOT_BLOCK_YOURSELF');
    expectError(await block('nobody_here', alice!.cookie), 404, 'USER_NOT_FOUND');
    for (const bad of ['x'.repeat(65), '%00', '..']) {
      const response = await block(bad, alice!.cookie);
      expect(response.statusCode, bad).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, bad).toBeLessThan(500);
    }
    expect(await blockRows(alice!.uid)).toHaveLength(0);
  });

  it('someone suspended is hidden: 404', async () => {
    const [alice, bob] = await people(2);
    await query(t.database, `UPDATE users SET suspended_until = now() + interval '1 day' WHERE id = $1`, [bob!.uid]);
    await t.app.changes.changed({ kind: 'suspension', userId: bob!.uid, username: bob!.username });
    expectError(await block(bob!.username, alice!.cookie), 404, 'USER_NOT_FOUND');
  });

  it('is rate-limited per account (RATE_LIMIT_BLOCKS_PER_USER), blocks and unblocks alike', async () => {
    const [alice, ...others] = await people(5);
    for (const other of others.slice(0, 3)) expect((await block(other.username, alice!.cookie)).statusCode).toBe(200);
    for (const other of others.slice(0, 3)) expect((await unblock(other.username, alice!.cookie)).statusCode).toBe(200);
    expectError(await block(others[3]!.username, alice!.cookie), 429, 'BLOCKING_TOO_FAST');
    expect(await blockRows(alice!.uid)).toHaveLength(0);
  });
});

describe('DELETE /api/users/:username/block', () => {
  it('unblocks: visibility comes back, the follows do not; idempotent', async () => {
    const [alice, bob] = await people(2);
    expect((await follow(t.app, bob!.username, alice!.cookie)).statusCode).toBe(200);
    expect((await block(bob!.username, alice!.cookie)).statusCode).toBe(200);
    const response = await unblock(bob!.username, alice!.cookie);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ blocked: false });
    expect(await profile(alice!.username, bob!.cookie)).toMatchObject({ blockedByMe: false, followedByMe: false });
    expect(await profile(bob!.username, alice!.cookie)).toMatchObject({ blockedByMe: false, followedByMe: false });
    expect(await edgesOf(t.database, alice!.uid, bob!.uid)).toEqual([]);
    expect(await blockedList(alice!.cookie)).toEqual([]);
    // Following works again.
    expect((await follow(t.app, bob!.username, alice!.cookie)).statusCode).toBe(200);
    expect((await unblock(bob!.username, alice!.cookie)).json()).toEqual({ blocked: false });
  });

  it('undoes your own block even when the other blocked you back', async () => {
    const [alice, bob] = await people(2);
    // Both directions: bob must block first (afterwards alice is hidden from him).
    expect((await block(alice!.username, bob!.cookie)).statusCode).toBe(200);
    await query(t.database, 'INSERT INTO blocks (blocker_id, blocked_id) VALUES ($1, $2)', [alice!.uid, bob!.uid]);
    await t.app.changes.changed({
      kind: 'block',
      blockerId: alice!.uid,
      blockerUsername: alice!.username,
      blockedId: bob!.uid,
      blockedUsername: bob!.username,
    });
    expect((await unblock(bob!.username, alice!.cookie)).statusCode).toBe(200);
    expect(await blockRows(alice!.uid)).toHaveLength(1);
    // Still hidden from alice: bob's block stands.
    expectError(await get(t.app, API.user(bob!.username), alice!.cookie), 404, 'USER_NOT_FOUND');
  });

  it('refuses: signed out (401), yourself (400), nobody (404)', async () => {
    const [alice] = await people(1);
    expectError(await unblock(alice!.username), 401, 'NOT_SIGNED_IN');
    expectError(await unblock(alice!.username, alice!.cookie), 400, 'CANNOT_BLOCK_YOURSELF');
    expectError(await unblock('nobody_here', alice!.cookie), 404, 'USER_NOT_FOUND');
  });
});

describe('GET /api/me/blocks', () => {
  it('lists whom you blocked, most recent first, with their icons; signed out is a 401', async () => {
    const [alice, bob, carol] = await people(3);
    expect(await blockedList(alice!.cookie)).toEqual([]);
    expect((await block(bob!.username, alice!.cookie)).statusCode).toBe(200);
    expect((await block(carol!.username, alice!.cookie)).statusCode).toBe(200);
    const response = await get(t.app, API.blocks, alice!.cookie);
    expect(response.json()).toEqual({
      users: [
        { uid: carol!.uid, username: carol!.username, icon: null },
        { uid: bob!.uid, username: bob!.username, icon: null },
      ],
    });
    // Not who blocked you.
    expect(await blockedList(bob!.cookie)).toEqual([]);
    expectError(await get(t.app, API.blocks), 401, 'NOT_SIGNED_IN');
  });
});

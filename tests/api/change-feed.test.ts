import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Changes, type Change } from '../../src/server/cache/changes.js';
import { ReadCache } from '../../src/server/cache/read-cache.js';
import { PostgresChangeFeed } from '../../src/server/db/change-feed.js';
import { ChangeNotices } from '../../src/server/db/change-notices.js';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { createEmptyDatabase, noPostgres } from '../helpers/services.js';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy.js';

/**
 * The change feed between two "processes" (two feeds, two caches) on one PostgreSQL database;
 * the second listens through a proxy the test can cut, as a network would.
 */
const quiet = { warn: () => undefined, info: () => undefined };
const bio = (username: string): Change => ({ kind: 'profile', userId: `${username}-id`, username });

async function until(condition: () => boolean | Promise<boolean>, what: string, ms = 5_000) {
  const deadline = Date.now() + ms;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting: ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(noPostgres)('the PostgreSQL change feed', { timeout: 60_000 }, () => {
  let created: Awaited<ReturnType<typeof createEmptyDatabase>>;
  let database: Database;
  let proxy: TcpProxy;
  const changesA = new Changes();
  const changesB = new Changes();
  const cacheA = new ReadCache({ maxBytes: 1_000_000, ttlMs: 60_000 });
  const cacheB = new ReadCache({ maxBytes: 1_000_000, ttlMs: 60_000 });
  let noticesA: ChangeNotices;
  let feedA: PostgresChangeFeed;
  let feedB: PostgresChangeFeed;
  /** Every change B heard of, in order. */
  const heardOnB: Change[] = [];
  let computed = 0;
  const profilesOnB = cacheB.region('profile', {
    staleAfter: (change) => (change.kind === 'profile' ? [change.username] : []),
  });
  const readOnB = (username: string) =>
    profilesOnB.get(username, async () => {
      computed += 1;
      return `${username} #${computed}`;
    });
  const userRow = async (id: string) => {
    const [row] = await database.rawTransaction((tx) =>
      tx.query<{ lastChangeId: string | null; lastChangeAt: Date | null }>(
        'SELECT last_change_id AS "lastChangeId", last_change_at AS "lastChangeAt" FROM users WHERE id = $1',
        [id],
      ),
    );
    return row!;
  };

  beforeAll(async () => {
    created = await createEmptyDatabase();
    database = await openDatabase({ databaseUrl: created.url });
    await migrate(database);
    await database.rawTransaction((tx) =>
      tx.exec(`INSERT INTO users (id, username, email, password_hash) VALUES
        ('bob-id', 'bob', 'bob@example.com', 'x'), ('eve-id', 'eve', 'eve@example.com', 'x')`),
    );
    const target = new URL(created.url);
    proxy = await startTcpProxy({ host: target.hostname, port: Number(target.port) || 5432 });
    const viaProxy = new URL(created.url);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    const feed = (url: string, changes: Changes, cache: ReadCache) => {
      const notices = new ChangeNotices(database.orm, changes);
      return { notices, feed: new PostgresChangeFeed({ databaseUrl: url, changes, notices, cache, log: quiet, connectTimeoutMs: 2_000 }) };
    };
    ({ notices: noticesA, feed: feedA } = feed(created.url, changesA, cacheA));
    feedB = feed(viaProxy.toString(), changesB, cacheB).feed;
    changesB.subscribe((change) => cacheB.changed(change));
    changesB.subscribe((change) => heardOnB.push(change));
    await Promise.all([feedA.start(), feedB.start()]);
  });

  afterAll(async () => {
    await Promise.all([feedA?.stop(), feedB?.stop()]);
    await proxy?.close();
    await database?.close();
    await created?.drop();
  });

  it("another process's change makes the entry stale there, and it marks its author's row", async () => {
    const before = await readOnB('bob');
    expect(await readOnB('bob')).toBe(before);
    await noticesA.changed(bio('bob'));
    await until(async () => (await readOnB('bob')) !== before, 'B forgets bob');
    const row = await userRow('bob-id');
    expect(row.lastChangeId).toMatch(/:\d+$/);
    expect(feedB.owesChange(row)).toBe(false);
  });

  it('marks both who made a change and whom it is about, with the same notice', async () => {
    await noticesA.transaction((_tx, note) => note({ id: 'eve-id' }, bio('bob')));
    const [bob, eve] = [await userRow('bob-id'), await userRow('eve-id')];
    expect(bob.lastChangeId).toMatch(/:\d+$/);
    expect(eve.lastChangeId).toBe(bob.lastChangeId);
  });

  it('a write and its notice commit together or not at all', async () => {
    const bioOf = async (id: string) =>
      (await database.rawTransaction((tx) => tx.query<{ bio: string }>('SELECT bio FROM users WHERE id = $1', [id])))[0]!.bio;
    const before = { bob: await userRow('bob-id'), eve: await userRow('eve-id') };
    const heard = heardOnB.length;
    // Undone after the notice was written: nobody is marked, nobody is told.
    await expect(
      noticesA.transaction(async (tx, note) => {
        await tx.execute(sql`UPDATE users SET bio = 'undone' WHERE id = 'bob-id'`);
        await note({ id: 'eve-id' }, bio('bob'));
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    // A notice that cannot be sent (NOTIFY takes under 8000 bytes) undoes its write.
    await expect(
      noticesA.transaction(async (tx, note) => {
        await tx.execute(sql`UPDATE users SET bio = 'unannounced' WHERE id = 'bob-id'`);
        await note({ id: 'eve-id' }, bio('b'.repeat(9_000)));
      }),
    ).rejects.toThrow();
    expect(await bioOf('bob-id')).toBe('');
    expect({ bob: await userRow('bob-id'), eve: await userRow('eve-id') }).toEqual(before);

    // Notices arrive in commit order: once B hears a later change, it would have heard those.
    const later: Change = { kind: 'profile', userId: 'eve-id', username: 'eve-later' };
    await noticesA.transaction((_tx, note) => note({ id: 'eve-id' }, later));
    await until(() => heardOnB.length > heard, 'B hears the committed change');
    expect(heardOnB.slice(heard)).toEqual([later]);
  });

  it('a change it has not heard of yet is owed: its author reads around the cache', async () => {
    const row = await userRow('bob-id');
    expect(feedB.owesChange({ lastChangeId: 'another-process:1', lastChangeAt: new Date(Date.now() + 60_000) })).toBe(true);
    expect(feedB.owesChange({ lastChangeId: null, lastChangeAt: null })).toBe(false);
    expect(feedB.owesChange(row)).toBe(false);
  });

  it('caches nothing while the feed is cut off, and caches again from empty once it is back', async () => {
    await readOnB('eve');
    const cachedCount = computed;
    await readOnB('eve');
    expect(computed).toBe(cachedCount);

    await proxy.set('down');
    // Cut off: every read computes (it could be missing changes).
    await until(async () => {
      const count = computed;
      await readOnB('eve');
      return computed > count;
    }, 'B stops caching');
    // A change made meanwhile never reaches B's feed ...
    await noticesA.changed(bio('eve'));
    const missed = await userRow('eve-id');
    expect(feedB.owesChange(missed)).toBe(true);

    await proxy.set('up');
    await until(async () => {
      await readOnB('eve');
      const count = computed;
      await readOnB('eve');
      return computed === count;
    }, 'B caches again');
    // ... and needs not to: B started again from an empty cache, after it.
    expect(feedB.owesChange(missed)).toBe(false);
  });
});

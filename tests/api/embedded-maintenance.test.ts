import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertFollows, insertUsers, query, at } from '../helpers/people.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/** PGlite runs no autovacuum: the server runs VACUUM and ANALYZE itself (embedded only). */
describe.skipIf(Boolean(process.env.TEST_DATABASE_URL))('embedded database maintenance', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ embeddedMaintenance: { vacuumMs: 100, analyzeMs: 150 } });
  });
  afterAll(() => t.close());

  it('reclaims dead rows and refreshes statistics on its own', async () => {
    const users = await insertUsers(t.database, 30, 'vac');
    await insertFollows(
      t.database,
      users.slice(1).map((user, i) => ({ follower: users[0]!.id, target: user.id, at: at(i) })),
    );
    await query(t.database, 'DELETE FROM follows WHERE follower_id = $1', [users[0]!.id]);
    const stats = () =>
      query<{ last_vacuum: Date | null; last_analyze: Date | null }>(
        t.database,
        `SELECT last_vacuum, last_analyze FROM pg_stat_user_tables WHERE relname = 'follows'`,
      ).then((rows) => rows[0]!);
    // A wait for the state (vacuum every 100 ms, analyze every 150 ms), bounded generously.
    await expect.poll(async () => Object.values(await stats()).every(Boolean), { timeout: 25_000, interval: 100 }).toBe(true);
  });
});

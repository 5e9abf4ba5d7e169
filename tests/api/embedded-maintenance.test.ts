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
    const deadline = Date.now() + 3000;
    let row = await stats();
    while ((!row.last_vacuum || !row.last_analyze) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      row = await stats();
    }
    expect(row.last_vacuum).not.toBeNull();
    expect(row.last_analyze).not.toBeNull();
  });
});

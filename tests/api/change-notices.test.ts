import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Changes, type Change } from '../../src/server/cache/changes.js';
import { ChangeNotices } from '../../src/server/db/change-notices.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * This process's caches hear of a change once its transaction has committed, and never of one
 * undone (the feed between processes: change-feed.test.ts).
 */
describe('change notices in this process', () => {
  let t: TestApp;
  const heard: Change[] = [];
  let notices: ChangeNotices;
  const change: Change = { kind: 'profile', userId: 'nobody-id', username: 'nobody' };

  beforeAll(async () => {
    t = await createTestApp();
    const changes = new Changes();
    changes.subscribe((each) => heard.push(each));
    notices = new ChangeNotices(t.database.orm, changes);
  });
  afterAll(() => t.close());

  it('delivers a change after its commit, never before', async () => {
    await notices.transaction(async (tx, note) => {
      await note({ id: null }, change);
      await tx.execute(sql`SELECT 1`);
      expect(heard, 'not committed yet').toEqual([]);
    });
    expect(heard).toEqual([change]);
  });

  it('never delivers a change whose transaction is undone', async () => {
    heard.length = 0;
    await expect(
      notices.transaction(async (_tx, note) => {
        await note({ id: null }, change);
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');
    expect(heard).toEqual([]);
  });
});

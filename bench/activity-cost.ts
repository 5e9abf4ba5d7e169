/**
 * npx tsx bench/activity-cost.ts (--db postgres://… | --pglite <a copy of a data dir>/pglite) [--runs 100] [--explain]
 *
 * What the activity scenarios' reads cost (issue 30), as ActivityService answers them when its
 * first-page cache misses, the server's other caches on (the viewer's blocks and the suspended
 * users read once, as a warm server keeps them): the bell's count and the activity page, first and later pages (the second, a
 * quarter and half way in, the last but one, as bench/run.ts picks them), of the notified user
 * bench/seed-notifications.ts made (the most notifications but the most followed account's).
 * For each: the statements it sends, its median wall time and this process's median CPU time
 * (on PGlite also the database's own work, which runs in this thread), and the same statements
 * sent by the bare client. --explain adds each statement's buffers, rows, planning time and median
 * execution time (EXPLAIN ANALYZE, BUFFERS): what the database does, whatever the machine's load.
 * Never open a data directory in use: copy it first.
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import { explainEach, openLoggedDatabase } from './logged-database.js';
import { median } from './ratios.js';
import { Changes } from '../src/server/cache/changes.js';
import { ReadCache } from '../src/server/cache/read-cache.js';
import { ChangeNotices } from '../src/server/db/change-notices.js';
import { Visibility } from '../src/server/directory/visibility.js';
import type { Viewer } from '../src/server/http/viewer.js';
import { ActivityService } from '../src/server/notifications/activity.service.js';

const { values } = parseArgs({
  options: {
    db: { type: 'string' },
    pglite: { type: 'string' },
    runs: { type: 'string', default: '100' },
    explain: { type: 'boolean', default: false },
  },
});
if (!values.db === !values.pglite) throw new Error('give --db or --pglite');
const runs = Number(values.runs);

const { db, raw, sent, close } = openLoggedDatabase(values);

const [popular] = await raw('SELECT id FROM users ORDER BY follower_count DESC, username LIMIT 1');
const [notified] = await raw(
  `SELECT u.id, u.username, u.role FROM notifications n JOIN users u ON u.id = n.user_id
    WHERE n.user_id <> $1 GROUP BY u.id ORDER BY count(*) DESC, u.username LIMIT 1`,
  [popular!.id],
);
if (!notified) throw new Error('no notifications here: seed with --notifications');
const viewer: Viewer = { id: notified.id as string, username: notified.username as string, role: notified.role as Viewer['role'] };
// Blocks and suspensions from memory as a warm server has them; every page read from the database
// (the first page's own cache off: what a miss costs).
const visibility = new Visibility(db, new ReadCache({ maxBytes: 16 * 1024 * 1024, ttlMs: 60 * 60 * 1000 }));
const activity = new ActivityService(db, visibility, new ReadCache({ maxBytes: 1, ttlMs: 0 }), new ChangeNotices(db, new Changes()));

// The later pages bench/run.ts reads: the second, a quarter and half way in, the last but one.
const cursors: string[] = [];
for (let cursor: string | null = (await activity.page(viewer, undefined)).nextCursor; cursor;) {
  cursors.push(cursor);
  cursor = (await activity.page(viewer, cursor)).nextCursor;
}
const pages = cursors.length + 1;
const later = [...new Set([2, Math.ceil(pages / 4), Math.ceil(pages / 2), pages - 1])].filter((page) => page >= 2);

const cpuMs = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};
const f = (ms: number) => ms.toFixed(2);

console.log(
  `${viewer.username}: ${pages} pages; load average ${os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
);
const reads: Array<{ name: string; read: () => Promise<unknown> }> = [
  { name: 'unread count', read: () => activity.unread(viewer) },
  { name: 'page 1', read: () => activity.page(viewer, undefined) },
  ...later.map((page) => ({ name: `page ${page}`, read: () => activity.page(viewer, cursors[page - 2]) })),
];
for (const { name, read } of reads) {
  await read();
  const wall: number[] = [];
  const cpu: number[] = [];
  let answer = '';
  for (let run = 0; run < runs; run++) {
    sent.length = 0;
    const start = performance.now();
    const since = process.cpuUsage();
    answer = JSON.stringify(await read());
    cpu.push(cpuMs(since));
    wall.push(performance.now() - start);
  }
  const statements = [...sent];
  const bare: number[] = [];
  for (let run = 0; run < runs; run++) {
    const since = process.cpuUsage();
    for (const statement of statements) await raw(statement.text, statement.params);
    bare.push(cpuMs(since));
  }
  console.log(
    `${name}: ${statements.length} statement(s), ${answer.length} bytes of JSON; wall ${f(median(wall))} ms; ` +
      `CPU here ${f(median(cpu))} ms, the same statements by the bare client ${f(median(bare))} ms`,
  );
  if (values.explain) await explainEach(raw, statements, runs, (statement) => `${statement.text.replace(/\s+/g, ' ').slice(0, 110)}…`);
}
await close();

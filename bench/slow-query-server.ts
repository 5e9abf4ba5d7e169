/**
 * The server of the bench's "slow query" scenario (bench/run.ts), in a process of its own as in
 * production: `node --import tsx bench/slow-query-server.ts`, spawned with an IPC channel, the
 * server's settings in the environment (DATA_DIR, DATABASE_URL, PORT, HOST, CACHE_TTL_MS, ...).
 *
 * Builds the app as src/server/main.ts does (the embedded database in a thread of its own,
 * migrated), minus the backup endpoint for `npm run backup` and its server file, and listens on
 * PORT. Over IPC:
 *
 *   → { ready: true, port }            once listening
 *   { slow: rows } → { started: true }  as soon as the slow statement is sent to the database,
 *                  → { ms }             when it has finished, its duration measured here
 *                  → { error }          if it failed
 *
 * The bench process only sends requests, so its own work (GC of its heap, its HTTP client) does
 * not land on the server's event loop. SIGTERM, SIGINT or the parent going away: closes the app
 * and the database (PGlite flushes to disk) and exits.
 */
import { sql } from 'drizzle-orm';
import { buildApp, openServerDatabase } from '../src/server/app.js';
import { loadConfig } from '../src/server/config.js';

/** What the parent sends. */
export interface SlowQueryRequest {
  slow: number;
}

/** What this process answers. */
export type SlowQueryServerMessage = { ready: true; port: number } | { started: true } | { ms: number } | { error: string };

/**
 * Keeps the database busy for a while: the set-returning function is in the select list, so
 * postgres counts its rows as they come instead of first writing them all to a temporary file
 * (`FROM generate_series(...)`: 5× slower on PGlite, and disk-bound).
 */
const countTo = (rows: number) => sql.raw(`SELECT count(*) FROM (SELECT generate_series(1, ${Math.floor(rows)})) AS numbers`);

const send = (message: SlowQueryServerMessage) => process.send?.(message);

if (!process.send) {
  console.error('bench/slow-query-server.ts: start it with an IPC channel (bench/run.ts does)');
  process.exit(2);
}

const config = loadConfig();
const database = await openServerDatabase(config);
const app = await buildApp({ config, database });

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  await app.close();
  await database.close();
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
process.on('disconnect', () => void shutdown());

process.on('message', (message: SlowQueryRequest) => {
  if (typeof message?.slow !== 'number') return;
  const started = performance.now();
  const querying = database.orm.execute(countTo(message.slow));
  querying.then(
    () => send({ ms: performance.now() - started }),
    (error: unknown) => send({ error: error instanceof Error ? error.message : String(error) }),
  );
  // Sent after the statement: a request the parent sends on hearing this finds it running.
  send({ started: true });
});

await app.listen({ port: config.port, host: config.host });
const address = app.server.address();
send({ ready: true, port: typeof address === 'object' && address ? address.port : config.port });

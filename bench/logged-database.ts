import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import type { AppDb } from '../src/server/db/database.js';
import { schema } from '../src/server/db/schema.js';
import { median } from './ratios.js';

type Raw = (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>;

/**
 * A bench database (PostgreSQL by URL, or a PGlite data directory) on one connection, for the
 * cost scripts (search-cost.ts, activity-cost.ts): the query builder the services take, every
 * statement it sends written down in `sent` (to replay bare, or EXPLAIN), and a bare client.
 */
export function openLoggedDatabase(where: { db?: string; pglite?: string }): {
  db: AppDb;
  raw: Raw;
  sent: Array<{ text: string; params: unknown[] }>;
  close: () => Promise<void>;
} {
  const sent: Array<{ text: string; params: unknown[] }> = [];
  const logger = { logQuery: (text: string, params: unknown[]) => void sent.push({ text, params }) };
  if (where.db) {
    const pool = new pg.Pool({ connectionString: where.db, max: 1 });
    return {
      db: drizzlePg({ client: pool, schema, logger }),
      raw: async (text, params) => (await pool.query(text, params)).rows as Array<Record<string, unknown>>,
      sent,
      close: () => pool.end(),
    };
  }
  const client = new PGlite({ dataDir: where.pglite });
  return {
    db: drizzlePglite({ client, schema, logger }),
    raw: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
    sent,
    close: () => client.close(),
  };
}

/**
 * EXPLAIN (ANALYZE, BUFFERS) of each statement, `runs` times (at most 30): its buffers, rows,
 * planning time and median execution time, printed a line each after `label(statement)`.
 */
export async function explainEach(
  raw: (text: string, params?: unknown[]) => Promise<Array<Record<string, unknown>>>,
  statements: Array<{ text: string; params: unknown[] }>,
  runs: number,
  label: (statement: { text: string; params: unknown[] }) => string,
): Promise<void> {
  const f = (ms: number) => ms.toFixed(2);
  for (const statement of statements) {
    const times: number[] = [];
    let plan: Record<string, unknown> = {};
    for (let run = 0; run < Math.min(runs, 30); run++) {
      const [row] = await raw(`EXPLAIN (ANALYZE, BUFFERS, FORMAT JSON) ${statement.text}`, statement.params);
      const json = row!['QUERY PLAN'];
      const plans = (typeof json === 'string' ? JSON.parse(json) : json) as Array<Record<string, unknown>>;
      plan = plans[0]!;
      times.push(plan['Execution Time'] as number);
    }
    const top = plan.Plan as Record<string, number>;
    console.log(
      `  buffers hit ${top['Shared Hit Blocks']} read ${top['Shared Read Blocks']}, rows ${top['Actual Rows']}, ` +
        `planning ${f(plan['Planning Time'] as number)} ms, execution median ${f(median(times))} ms: ${label(statement)}`,
    );
  }
}

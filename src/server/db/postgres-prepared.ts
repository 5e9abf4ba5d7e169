import { createHash } from 'node:crypto';
import type pg from 'pg';
import { isStalePreparedStatement } from './sql-state.js';

/**
 * Distinct statements one connection keeps prepared. Each holds a plan in its backend's memory,
 * so the number is bounded: past it a connection runs new texts unprepared, as before.
 */
const MAX_PER_CONNECTION = 200;

/** A statement as node-postgres takes it. */
type QueryConfig = { text: string; name?: string; values?: unknown[] };

/**
 * Every statement on the pool's connections prepared once per connection: node-postgres sends
 * Parse only the first time a connection sees a named statement, and PostgreSQL plans it once
 * (re-planning itself when a table it reads changes, and keeping a generic plan only where it
 * costs no more than the custom ones).
 *
 * Why: unprepared, PostgreSQL parses and plans every statement again. The session read that
 * every signed-in request makes cost its backend ~190 µs and node ~95 µs that way, ~35 µs and
 * ~60 µs prepared (2026-11-26, bench data at 100k posts).
 *
 * The name is a hash of the text, the same on every connection. Off (DATABASE_PREPARED_STATEMENTS=off)
 * behind a pooler in transaction mode that cannot carry prepared statements (PgBouncer before 1.21).
 */
export function prepareStatements(pool: pg.Pool) {
  pool.on('connect', (client) => prepareOn(client));
}

/**
 * DATABASE_PREPARED_STATEMENTS=off: no statement is prepared, not even those the code names itself
 * (db/built-once.ts), as a pooler in transaction mode may run each on another connection.
 */
export function unprepareStatements(pool: pg.Pool) {
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (config: unknown, values?: unknown, callback?: unknown) => unknown;
    client.query = ((config: unknown, values?: unknown, callback?: unknown) =>
      query(isNamed(config) ? { ...config, name: undefined } : config, values, callback)) as typeof client.query;
  });
}

function isNamed(config: unknown): config is QueryConfig {
  return typeof config === 'object' && config !== null && typeof (config as Partial<QueryConfig>).name === 'string';
}

function prepareOn(client: pg.PoolClient) {
  /** Text → name of the statements prepared on this connection (the name is hashed once). */
  const prepared = new Map<string, string>();
  /** Texts whose prepared form went stale on this connection: unprepared from then on. */
  const stale = new Set<string>();
  const query = client.query.bind(client) as (config: unknown, values?: unknown, callback?: unknown) => unknown;
  // node-postgres's query() has many shapes; only a config object with text and no name of its own is named.
  client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
    // pg-pool's own query() passes a callback: (values, callback) or (callback) alone.
    if (typeof values === 'function') [values, callback] = [undefined, values];
    if (!isUnnamed(config) || stale.has(config.text)) return query(config, values, callback);
    let name = prepared.get(config.text);
    if (name === undefined) {
      if (prepared.size >= MAX_PER_CONNECTION) return query(config, values, callback);
      name = nameOf(config.text);
      prepared.set(config.text, name);
    }
    const answer = (query({ ...config, name }, values) as Promise<unknown>).catch((error: unknown) => {
      if (!isStalePreparedStatement(error)) throw error;
      // A migration changed what it returns, or the statement was dropped: once more unprepared.
      // Inside a transaction the error has aborted it and the retry fails too: the first error is what happened.
      stale.add(config.text);
      return (query(config, values) as Promise<unknown>).catch(() => {
        throw error;
      });
    });
    if (typeof callback !== 'function') return answer;
    const done = callback as (error: unknown, result?: unknown) => void;
    answer.then(
      (result) => done(undefined, result),
      (error: unknown) => done(error),
    );
    return undefined;
  }) as typeof client.query;
}

function isUnnamed(config: unknown): config is QueryConfig {
  if (typeof config !== 'object' || config === null) return false;
  const { text, name } = config as Partial<QueryConfig>;
  // A Submittable (a cursor, a stream) has no text: it is left alone.
  return typeof text === 'string' && name === undefined && !('submit' in config);
}

const nameOf = (text: string) => `dormboard_${createHash('sha1').update(text).digest('base64url')}`;

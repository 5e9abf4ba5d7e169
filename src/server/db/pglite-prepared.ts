import { protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { LRUCache } from 'lru-cache';
import { readAnswer } from './pglite-wire.js';
import { isStalePreparedStatement } from './sql-state.js';

/** The part of a PGlite transaction the server uses. */
export type PreparedTransaction = Pick<Transaction, 'query' | 'exec' | 'rollback'>;

/** Statements kept prepared per database. Each holds its plan in postgres's memory; the least used are closed. */
const MAX_PREPARED = 300;

/**
 * The embedded database with every statement prepared once and run in one trip into postgres.
 *
 * Why: PGlite's query() parses and plans each statement every time and crosses into postgres six
 * times per statement (Parse, Describe, Bind, Describe, Execute, Sync). In WebAssembly the planning
 * is most of a small read's cost: the profile read's four statements took 150–400 µs each through
 * query(), 50–100 µs each prepared (2026-11-26, bench data at 100k posts). A statement here is
 * parsed once under a name (PostgreSQL re-plans it itself when a table it reads changes, and after
 * five runs keeps a generic plan only where that plan costs no more than the custom ones); each
 * run sends Bind, Describe, Execute and Sync in one buffer, and its answer is read from the bytes
 * postgres wrote (pglite-wire.ts), not through PGlite's message objects.
 *
 * Parameters go as text, as PGlite's own serializers send strings, numbers and booleans; a
 * statement with any other parameter (a Date, bytes, an object) goes through query() as before.
 */
export class PreparedPGlite {
  private readonly names: LRUCache<string, string>;
  /** Statements evicted from `names`, closed in the next trip outside a transaction. */
  private closing: string[] = [];
  private counter = 0;

  constructor(readonly db: PGlite) {
    this.names = new LRUCache({ max: MAX_PREPARED, dispose: (name) => this.closing.push(name) });
  }

  query<Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<Row>> {
    return this.run(false, sql, params, options, () => this.db.query<Row>(sql, params, options));
  }

  exec(sql: string) {
    return this.db.exec(sql);
  }

  /** PGlite's transaction, whose queries are prepared too. */
  transaction<T>(work: (tx: PreparedTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) =>
      work({
        query: <Row>(sql: string, params?: unknown[], options?: QueryOptions) =>
          this.run(true, sql, params, options, () => tx.query<Row>(sql, params, options)),
        exec: (sql, options) => tx.exec(sql, options),
        rollback: () => tx.rollback(),
      }),
    );
  }

  dumpDataDir(compression?: 'gzip' | 'auto' | 'none') {
    return this.db.dumpDataDir(compression);
  }

  close() {
    return this.db.close();
  }

  private async run<Row>(
    inTransaction: boolean,
    sql: string,
    params: unknown[] | undefined,
    options: QueryOptions | undefined,
    unprepared: () => Promise<Results<Row>>,
  ): Promise<Results<Row>> {
    const values = asText(params ?? []);
    if (!values) return unprepared();
    // As query() does: a closed (or closing) database refuses, with PGlite's own error.
    await this.db._checkReady();
    const once = () => this.trip<Row>(inTransaction, sql, values, options);
    // Inside a transaction PGlite already holds it for this caller; outside, wait for any other.
    const exclusive = () => this.db._runExclusiveQuery(once);
    try {
      return await (inTransaction ? exclusive() : this.db._runExclusiveTransaction(exclusive));
    } catch (error) {
      if (!isStalePreparedStatement(error)) throw error;
      this.names.delete(sql);
      // In a transaction the error has aborted it: the caller rolls back and may try again.
      if (inTransaction) throw error;
      return this.db._runExclusiveTransaction(exclusive);
    }
  }

  private async trip<Row>(inTransaction: boolean, sql: string, values: Array<string | null>, options: QueryOptions | undefined) {
    const { serialize } = protocol;
    const parts: Uint8Array[] = [];
    // Closing inside a transaction could meet it aborted; outside, nothing is in the way.
    if (!inTransaction) for (const name of this.closing.splice(0)) parts.push(serialize.close({ type: 'S', name }));
    let name = this.names.get(sql);
    const isNew = name === undefined;
    if (name === undefined) {
      this.counter += 1;
      name = `dormboard_${this.counter}`;
      parts.push(serialize.parse({ name, text: sql }));
    }
    parts.push(serialize.bind({ statement: name, values }), serialize.describe({ type: 'P' }), serialize.execute({}), serialize.sync());
    const chunks: Uint8Array[] = [];
    let answer: Results<Row>;
    try {
      // Postgres writes into its own memory, which the next write reuses: each chunk is copied.
      await this.db.execProtocolRawStream(Buffer.concat(parts), { syncToFs: false, onRawData: (chunk) => chunks.push(chunk.slice()) });
      const given = options?.parsers;
      answer = readAnswer<Row>(
        chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks),
        (type) => given?.[type] ?? this.db.parsers[type],
        options?.rowMode,
      );
    } catch (error) {
      // Whether the parse or a later step failed, closing the name is harmless (a name never
      // parsed closes without error) and the next run parses it afresh.
      if (isNew) this.closing.push(name);
      throw Object.assign(error as Error, { query: sql, params: values, queryOptions: options });
    }
    if (isNew) this.names.set(sql, name);
    if (!inTransaction) await this.db.syncToFs();
    return answer;
  }
}

/**
 * The parameters as PGlite's serializers would send them, when they are all strings, numbers,
 * booleans or null: for these every serializer gives the value's own text (PostgreSQL reads
 * 'true'/'false' for a boolean). Undefined when one is anything else.
 */
function asText(params: unknown[]): Array<string | null> | undefined {
  const values: Array<string | null> = [];
  for (const value of params) {
    if (value === null || value === undefined) values.push(null);
    else if (typeof value === 'string') values.push(value);
    else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') values.push(String(value));
    else return undefined;
  }
  return values;
}

import { protocol, type PGlite, type QueryOptions, type Results, type Transaction } from '@electric-sql/pglite';
import { LRUCache } from 'lru-cache';
import { errorIn, readAnswer } from './pglite-wire.js';
import { isStalePreparedStatement } from './sql-state.js';
import { arrayLiteral } from './text-array.js';

/** The part of a PGlite transaction the server uses, and its answers as bytes. */
export type PreparedTransaction = Pick<Transaction, 'query' | 'exec' | 'rollback'> & Pick<PreparedPGlite, 'answer'>;

/**
 * A statement's answer: the bytes postgres wrote (its messages, read by pglite-wire.ts's
 * readAnswer, in a buffer of their own), or, for a statement run through query(), its result.
 */
export type Answer<Row> = Uint8Array | Results<Row>;

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
 * Parameters go as text, as PGlite's own serializers send strings, numbers, booleans and flat
 * arrays of them; a statement with any other parameter (a Date, bytes, an object, a nested
 * array) goes through query() as before.
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
    return this.answer<Row>(sql, params, options).then((answer) => this.read(answer, options));
  }

  /** The statement's answer, unread (see Answer): the thread that reads it may be another (pglite-worker.ts). */
  answer<Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Answer<Row>> {
    return this.run(false, sql, params, () => this.db.query<Row>(sql, params, options));
  }

  exec(sql: string) {
    return this.db.exec(sql);
  }

  /** PGlite's transaction, whose queries are prepared too. */
  transaction<T>(work: (tx: PreparedTransaction) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => {
      const answer = <Row>(sql: string, params?: unknown[], options?: QueryOptions) =>
        this.run(true, sql, params, () => tx.query<Row>(sql, params, options));
      return work({
        query: <Row>(sql: string, params?: unknown[], options?: QueryOptions) =>
          answer<Row>(sql, params, options).then((result) => this.read(result, options)),
        answer,
        exec: (sql, options) => tx.exec(sql, options),
        rollback: () => tx.rollback(),
      });
    });
  }

  dumpDataDir(compression?: 'gzip' | 'auto' | 'none') {
    return this.db.dumpDataDir(compression);
  }

  close() {
    return this.db.close();
  }

  private read<Row>(answer: Answer<Row>, options: QueryOptions | undefined): Results<Row> {
    if (!(answer instanceof Uint8Array)) return answer;
    const given = options?.parsers;
    return readAnswer<Row>(answer, (type) => given?.[type] ?? this.db.parsers[type], options?.rowMode);
  }

  private async run<Row>(
    inTransaction: boolean,
    sql: string,
    params: unknown[] | undefined,
    unprepared: () => Promise<Results<Row>>,
  ): Promise<Answer<Row>> {
    const values = asText(params ?? []);
    if (!values) return unprepared();
    // As query() does: a closed (or closing) database refuses, with PGlite's own error.
    await this.db._checkReady();
    const once = () => this.trip(inTransaction, sql, values);
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

  private async trip(inTransaction: boolean, sql: string, values: Array<string | null>): Promise<Uint8Array> {
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
    let bytes: Uint8Array;
    try {
      // Postgres writes into its own memory, which the next write reuses: each chunk is copied.
      await this.db.execProtocolRawStream(Buffer.concat(parts), { syncToFs: false, onRawData: (chunk) => chunks.push(chunk.slice()) });
      bytes = chunks.length === 1 ? chunks[0]! : concatenated(chunks);
      const error = errorIn(bytes);
      if (error) throw error;
    } catch (error) {
      // Whether the parse or a later step failed, closing the name is harmless (a name never
      // parsed closes without error) and the next run parses it afresh.
      if (isNew) this.closing.push(name);
      throw Object.assign(error as Error, { query: sql, params: values });
    }
    if (isNew) this.names.set(sql, name);
    if (!inTransaction) await this.db.syncToFs();
    return bytes;
  }
}

/** The chunks in one buffer of its own (Buffer.concat may return a view of Node's shared pool, which cannot be moved to another thread). */
function concatenated(chunks: Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  return bytes;
}

/**
 * The parameters as PGlite's serializers would send them, when they are all strings, numbers,
 * booleans, null, or flat arrays of strings, numbers and nulls: for these every serializer gives
 * the value's own text (PostgreSQL reads 'true'/'false' for a boolean, and an array literal for
 * an array: the search's grams, related posts' hashtags). Undefined when one is anything else.
 */
function asText(params: unknown[]): Array<string | null> | undefined {
  const values: Array<string | null> = [];
  for (const value of params) {
    if (value === null || value === undefined) values.push(null);
    else if (typeof value === 'string') values.push(value);
    else if (typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean') values.push(String(value));
    else if (Array.isArray(value) && value.every(isArrayElement)) values.push(arrayLiteral(value));
    else return undefined;
  }
  return values;
}

const isArrayElement = (value: unknown): value is string | number | null =>
  value === null || typeof value === 'string' || typeof value === 'number';

import { Worker } from 'node:worker_threads';
import { fromErrorData, type Call, type QueryAnswer, type Ready, type Reply, type Request, type WorkerStart } from './pglite-protocol.js';
import { pgliteParsers, readAnswer, type ColumnParser } from './pglite-wire.js';

/** What a statement returns, as PGlite returns it. */
export interface QueryResult<Row> {
  rows: Row[];
  fields: { name: string; dataTypeID: number }[];
  affectedRows?: number;
}

export interface QueryOptions {
  rowMode?: 'array' | 'object';
  /** By type: only parsers that keep PostgreSQL's text as it is (what drizzle gives) can cross threads. */
  parsers?: Record<number, (value: string, type: number) => unknown>;
}

export interface ThreadTransaction {
  query<Row>(sql: string, params?: unknown[], options?: QueryOptions): Promise<QueryResult<Row>>;
  exec(sql: string): Promise<unknown>;
}

/**
 * The embedded database in a thread of its own (pglite-worker.ts), with the part of PGlite's API
 * that drizzle and Database use: query, exec, transaction, dumpDataDir, close.
 *
 * Why: PGlite runs postgres compiled to WebAssembly, synchronously, in whichever thread calls it.
 * On the server's own thread every statement stopped everything else for as long as it ran: a
 * 1 s query delayed every request by 1 s, even those the caches answer. Here the server's thread
 * only posts a message and is free until the answer comes back; statements still run one at a
 * time, as they did.
 */
export class PGliteThread implements ThreadTransaction {
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private nextId = 1;
  /** Set once the thread is gone (closed, or died); every call then fails with it. */
  private gone: Error | undefined;
  private closing = false;

  private constructor(
    private readonly worker: Worker,
    /** PGlite's parsers by type, as the database in the thread has them. */
    private readonly parsers: Record<number, ColumnParser>,
  ) {
    worker.on('message', (reply: Reply) => this.settle(reply));
    worker.on('error', (error) => this.stop(error));
    worker.on('exit', (code) => {
      // 08006 (connection failure): to callers, as a lost PostgreSQL connection (HTTP 503).
      const exited = Object.assign(new Error(`the embedded database thread exited (${code})`), { code: '08006' });
      this.stop(exited);
      // The process cannot serve without its database: end it, so its supervisor starts it again.
      if (!this.closing) throw exited;
    });
    // Idle, the thread does not keep the process alive; while a call waits, it does.
    worker.unref();
  }

  static async open(start: WorkerStart): Promise<PGliteThread> {
    const worker = startWorker(start);
    const ready = await new Promise<Ready>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
    if (!ready.ready) {
      await worker.terminate();
      throw fromErrorData(ready.error);
    }
    return new PGliteThread(worker, pgliteParsers(ready.arrayTypes));
  }

  async query<Row>(sql: string, params?: unknown[], options?: QueryOptions, tx?: number): Promise<QueryResult<Row>> {
    const keepText = Object.entries(options?.parsers ?? {}).map(([type, parser]) => {
      if (parser('1', Number(type)) !== '1') throw new Error(`type ${type}: only parsers that keep the text reach the database thread`);
      return Number(type);
    });
    const answer = (await this.call({ op: 'query', sql, params, rowMode: options?.rowMode, keepText, tx })) as QueryAnswer;
    if (!('bytes' in answer)) return answer as QueryResult<Row>;
    const given = options?.parsers;
    return readAnswer<Row>(new Uint8Array(answer.bytes), (type) => given?.[type] ?? this.parsers[type], options?.rowMode);
  }

  async exec(sql: string, tx?: number): Promise<void> {
    await this.call({ op: 'exec', sql, tx });
  }

  /** One transaction at a time, as in PGlite: other statements wait until it ends. */
  async transaction<T>(work: (tx: ThreadTransaction) => Promise<T>): Promise<T> {
    const id = (await this.call({ op: 'begin' })) as number;
    let result: T;
    try {
      result = await work({
        query: (sql, params, options) => this.query(sql, params, options, id),
        exec: (sql) => this.exec(sql, id),
      });
    } catch (error) {
      await this.call({ op: 'end', tx: id, commit: false }).catch(() => undefined);
      throw error;
    }
    await this.call({ op: 'end', tx: id, commit: true });
    return result;
  }

  async dumpDataDir(_compression: 'gzip'): Promise<Blob> {
    return new Blob([(await this.call({ op: 'dump' })) as ArrayBuffer]);
  }

  async close(): Promise<void> {
    if (this.closing) return;
    this.closing = true;
    await this.call({ op: 'close' });
    // 57P01 (admin shutdown): a request still in flight while the server stops gets a 503.
    this.stop(Object.assign(new Error('the embedded database is closed'), { code: '57P01' }));
    await this.worker.terminate();
  }

  private call(call: Call): Promise<unknown> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    if (this.pending.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...call, id } satisfies Request);
    });
  }

  private settle(reply: Reply) {
    const waiting = this.pending.get(reply.id);
    if (!waiting) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.worker.unref();
    if (reply.ok) waiting.resolve(reply.value);
    else waiting.reject(fromErrorData(reply.error));
  }

  private stop(error: Error) {
    this.gone ??= error;
    for (const waiting of this.pending.values()) waiting.reject(error);
    this.pending.clear();
  }
}

/** The built server has the worker beside main.js; from source (tsx, tests) it is TypeScript, which tsx loads. */
function startWorker(start: WorkerStart): Worker {
  const options = { workerData: start, transferList: start.loadDump ? [start.loadDump] : [] };
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./pglite-worker.js', import.meta.url), options);
  const source = new URL('./pglite-worker.ts', import.meta.url).href;
  // Node 20 does not pass --import to workers: the worker registers tsx itself.
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(source)}); })`;
  return new Worker(code, { ...options, eval: true });
}

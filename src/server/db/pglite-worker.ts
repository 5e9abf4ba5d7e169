/**
 * The thread that owns the embedded database (see pglite-thread.ts): opens PGlite, then answers
 * the server thread's requests one message at a time, in the order they arrive. PGlite itself
 * runs one statement at a time and keeps everything else out while a transaction is open, as it
 * does in one thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PreparedPGlite, type PreparedTransaction } from './pglite-prepared.js';
import { toErrorData, type QueryAnswer, type Ready, type Reply, type Request, type WorkerStart } from './pglite-protocol.js';
import { ARRAY_TYPES_SQL, type ArrayType } from './pglite-wire.js';
import { prepareEmbedded } from './pglite-setup.js';

const port = parentPort!;
const start = workerData as WorkerStart;

interface OpenTransaction {
  tx: PreparedTransaction;
  /** Lets the transaction's callback return: commit, or roll back. */
  finish(commit: boolean): void;
  /** Settles when PGlite has committed or rolled back. */
  settled: Promise<void>;
}

const transactions = new Map<number, OpenTransaction>();

function keepText(types: number[]) {
  return Object.fromEntries(types.map((type) => [type, (value: string) => value]));
}

/** Opens a transaction and holds it until its 'end' request; answers with its number. */
function begin(db: PreparedPGlite, id: number): Promise<number> {
  return new Promise((opened, failed) => {
    let finish!: (commit: boolean) => void;
    const decided = new Promise<boolean>((resolve) => (finish = resolve));
    const settled = db.transaction(async (tx) => {
      transactions.set(id, { tx, finish, settled });
      opened(id);
      if (!(await decided)) await tx.rollback();
    });
    // BEGIN itself failed: nobody holds the transaction yet.
    settled.catch((error: Error) => {
      if (!transactions.has(id)) failed(error);
    });
  });
}

async function end(txId: number, commit: boolean): Promise<void> {
  const open = transactions.get(txId);
  if (!open) throw new Error(`no open transaction ${txId}`);
  open.finish(commit);
  try {
    await open.settled;
  } finally {
    transactions.delete(txId);
  }
}

/** The transaction a request names, or the database itself. */
function target(db: PreparedPGlite, tx: number | undefined): PreparedPGlite | PreparedTransaction {
  if (tx === undefined) return db;
  const open = transactions.get(tx);
  if (!open) throw new Error(`no open transaction ${tx}`);
  return open.tx;
}

async function answer(db: PreparedPGlite, request: Request): Promise<unknown> {
  switch (request.op) {
    case 'query': {
      const answer = await target(db, request.tx).answer(request.sql, request.params, {
        rowMode: request.rowMode,
        parsers: keepText(request.keepText),
      });
      // Unread: the server's thread reads the bytes (moved, not copied), and this thread, which
      // runs every statement, is free for the next one. Cloning a 101-card page's rows took it
      // longer than running the statement (2026-11-26).
      if (answer instanceof Uint8Array) return { bytes: ownBuffer(answer) } satisfies QueryAnswer;
      return { rows: answer.rows, fields: answer.fields, affectedRows: answer.affectedRows } satisfies QueryAnswer;
    }
    case 'exec':
      await target(db, request.tx).exec(request.sql);
      return undefined;
    case 'begin':
      return begin(db, request.id);
    case 'end':
      return end(request.tx, request.commit);
    case 'dump':
      return (await db.dumpDataDir('gzip')).arrayBuffer();
    case 'close':
      await db.close();
      return undefined;
  }
}

/** The bytes' buffer when they fill it (as the answers' do), else a copy's: only a whole buffer can be moved. */
function ownBuffer(bytes: Uint8Array): ArrayBuffer {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return (whole ? bytes : bytes.slice()).buffer as ArrayBuffer;
}

function movable(value: unknown): ArrayBuffer[] {
  if (value instanceof ArrayBuffer) return [value];
  if (value && typeof value === 'object' && 'bytes' in value && value.bytes instanceof ArrayBuffer) return [value.bytes];
  return [];
}

try {
  const db = new PreparedPGlite(new PGlite({ dataDir: start.dir, loadDataDir: start.loadDump && new Blob([start.loadDump]) }));
  await prepareEmbedded(db.db);
  const arrayTypes = (await db.query<{ oid: number; typarray: number }>(ARRAY_TYPES_SQL)).rows.map((row): ArrayType => [
    row.oid,
    row.typarray,
  ]);
  port.on('message', (request: Request) => {
    answer(db, request).then(
      (value) => {
        const reply: Reply = { id: request.id, ok: true, value };
        // A dump and an answer's bytes are moved, not copied.
        port.postMessage(reply, movable(value));
      },
      (error: unknown) => port.postMessage({ id: request.id, ok: false, error: toErrorData(error) } satisfies Reply),
    );
  });
  port.postMessage({ ready: true, arrayTypes } satisfies Ready);
} catch (error) {
  port.postMessage({ ready: false, error: toErrorData(error) } satisfies Ready);
}

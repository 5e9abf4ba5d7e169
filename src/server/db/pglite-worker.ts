/**
 * The thread that owns the embedded database (see pglite-thread.ts): opens PGlite, then answers
 * the server thread's requests one message at a time, in the order they arrive. PGlite itself
 * runs one statement at a time and keeps everything else out while a transaction is open, as it
 * does in one thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PreparedPGlite, type PreparedTransaction } from './pglite-prepared.js';
import { toErrorData, type Ready, type Reply, type Request, type WorkerStart } from './pglite-protocol.js';
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
      const result = await target(db, request.tx).query(request.sql, request.params, {
        rowMode: request.rowMode,
        parsers: keepText(request.keepText),
      });
      return { rows: result.rows, fields: result.fields, affectedRows: result.affectedRows };
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

try {
  const db = new PreparedPGlite(new PGlite({ dataDir: start.dir, loadDataDir: start.loadDump && new Blob([start.loadDump]) }));
  await prepareEmbedded(db.db);
  port.on('message', (request: Request) => {
    answer(db, request).then(
      (value) => {
        const reply: Reply = { id: request.id, ok: true, value };
        // A dump is moved, not copied.
        port.postMessage(reply, value instanceof ArrayBuffer ? [value] : []);
      },
      (error: unknown) => port.postMessage({ id: request.id, ok: false, error: toErrorData(error) } satisfies Reply),
    );
  });
  port.postMessage({ ready: true } satisfies Ready);
} catch (error) {
  port.postMessage({ ready: false, error: toErrorData(error) } satisfies Ready);
}

/**
 * The messages between the server's thread and the thread that owns the embedded database
 * (pglite-thread.ts asks, pglite-worker.ts answers). Plain data only: they cross threads by
 * structured clone, which drops functions and the fields of errors.
 */
import type { ArrayType } from './pglite-wire.js';

/** What the worker is started with. */
export interface WorkerStart {
  /** The PGlite data directory; undefined = in memory. */
  dir: string | undefined;
  /** A dump to start from (restore, tests), as bytes. */
  loadDump: ArrayBuffer | undefined;
}

/** What the server's thread asks for. */
export type Call =
  | {
      op: 'query';
      sql: string;
      params: unknown[] | undefined;
      rowMode: 'array' | 'object' | undefined;
      /** Types whose values stay as PostgreSQL's text (drizzle parses timestamps itself). */
      keepText: number[];
      /** Inside this open transaction; undefined = on its own. */
      tx: number | undefined;
    }
  | { op: 'exec'; sql: string; tx: number | undefined }
  | { op: 'begin' }
  | { op: 'end'; tx: number; commit: boolean }
  | { op: 'dump' }
  | { op: 'close' };

/** A call as sent, numbered so that its reply finds it. */
export type Request = Call & { id: number };

/** A database error's fields (SQLSTATE `code`, `constraint`, `detail`, ...), which structured clone would drop. */
export interface ErrorData {
  message: string;
  fields: Record<string, string | number | boolean>;
}

export type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ErrorData };

/** The worker's first message: open (and set up), with the array types it knows, or why it could not open. */
export type Ready = { ready: true; arrayTypes: ArrayType[] } | { ready: false; error: ErrorData };

/** A query's value: its answer's bytes, unread (pglite-wire.ts), or a result (a statement run through PGlite's query()). */
export type QueryAnswer =
  { bytes: ArrayBuffer } | { rows: unknown[]; fields: Array<{ name: string; dataTypeID: number }>; affectedRows: number | undefined };

export function toErrorData(error: unknown): ErrorData {
  if (!(error instanceof Error)) return { message: String(error), fields: {} };
  const fields: ErrorData['fields'] = {};
  for (const [key, value] of Object.entries(error)) {
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') fields[key] = value;
  }
  return { message: error.message, fields };
}

/** An Error with the original's fields, so hasSqlState() and isDatabaseUnavailable() work as in one thread. */
export function fromErrorData(data: ErrorData): Error {
  return Object.assign(new Error(data.message), data.fields);
}

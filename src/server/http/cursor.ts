import { AppError } from './app-error.js';

/**
 * Opaque page cursors: the sort key of the last row, base64url-encoded JSON. Opaque so clients
 * can't depend on the shape; validated on the way in because clients can send anything.
 */
export function encodeCursor(key: { sortTime: string; id: string }): string {
  return Buffer.from(JSON.stringify([key.sortTime, key.id])).toString('base64url');
}

export function decodeCursor(cursor: string | undefined): { sortTime: string; id: string } | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      !Number.isNaN(Date.parse(value[0].replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')))
    ) {
      return { sortTime: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  throw new AppError(400, 'BAD_REQUEST');
}

/** Splits the one-extra row a page query fetched off into "is there more". */
export function toPage<Row extends { sortTime: string; id: string }>(rows: Row[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

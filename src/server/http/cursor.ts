import { AppError } from './app-error.js';

/**
 * Opaque page cursors: the sort key of the last row, base64url-encoded JSON. Opaque so clients
 * can't depend on the shape; validated on the way in because clients can send anything.
 */
/** Where a page of newest-first rows continues: the last row's sort time and id. */
export interface PageKey {
  sortTime: string;
  id: string;
}

export function encodeCursor(key: PageKey): string {
  return Buffer.from(JSON.stringify([key.sortTime, key.id])).toString('base64url');
}

/** PostgreSQL's text form of a timestamptz, e.g. "2026-11-22 01:45:00.123456+00". */
const PG_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?[+-](\d{2})(?::(\d{2}))?$/;

/**
 * Only real calendar times pass: the database would refuse "Feb 30", or a UTC offset of 16 hours
 * or more, with an error, not a 400.
 */
function isPgTimestamp(value: string): boolean {
  const match = PG_TIMESTAMP.exec(value);
  if (!match) return false;
  const [year, month, day, hour, minute, second, offsetHours] = match.slice(1, 8).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const offsetMinutes = Number(match[8] ?? 0);
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    offsetHours < 16 &&
    offsetMinutes < 60
  );
}

export function decodeCursor(cursor: string | undefined): PageKey | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      typeof value[0] === 'string' &&
      typeof value[1] === 'string' &&
      isPgTimestamp(value[0])
    ) {
      return { sortTime: value[0], id: value[1] };
    }
  } catch {
    // fall through
  }
  throw new AppError(400, 'BAD_REQUEST');
}

/** Splits the one-extra row a page query fetched off into "is there more". */
export function toPage<Row extends PageKey>(rows: Row[], limit: number) {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { rows: page, nextCursor: rows.length > limit && last ? encodeCursor(last) : null };
}

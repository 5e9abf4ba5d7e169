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
const PG_TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,6}))?([+-]\d{2})(?::(\d{2}))?$/;

/** The fields of a PostgreSQL timestamp's text: the date and time as numbers, the fraction's digits, the offset in minutes. */
function pgTimestampParts(value: string) {
  const match = PG_TIMESTAMP.exec(value);
  if (!match) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const offsetHours = Number(match[8]);
  const offsetMinutes = Number(match[9] ?? 0);
  return { year, month, day, hour, minute, second, fraction: match[7] ?? '', offsetHours, offsetMinutes };
}

/**
 * Only real calendar times pass: the database would refuse "Feb 30", or a UTC offset of 16 hours
 * or more, with an error, not a 400.
 */
export function isPgTimestamp(value: string): boolean {
  const parts = pgTimestampParts(value);
  if (!parts) return false;
  const { year, month, day, hour, minute, second, offsetHours, offsetMinutes } = parts;
  const date = new Date(Date.UTC(year, month - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === month - 1 &&
    date.getUTCDate() === day &&
    hour < 24 &&
    minute < 60 &&
    second < 60 &&
    Math.abs(offsetHours) < 16 &&
    offsetMinutes < 60
  );
}

/**
 * A cursor's time (a PostgreSQL timestamp's text, checked by decodeCursor) in microseconds since
 * 1970, for comparing with sort keys in memory (boards/board-reads.ts) without a JS Date's
 * rounding to milliseconds.
 */
export function pgTimeMicros(value: string): number {
  const parts = pgTimestampParts(value);
  if (!parts) throw new AppError(400, 'BAD_REQUEST');
  const { year, month, day, hour, minute, second, fraction, offsetHours, offsetMinutes } = parts;
  const offset = Math.sign(offsetHours || 1) * (Math.abs(offsetHours) * 60 + offsetMinutes);
  const ms = Date.UTC(year, month - 1, day, hour, minute, second) - offset * 60_000;
  return ms * 1000 + Number(fraction.padEnd(6, '0'));
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

import { sql, type SQL } from 'drizzle-orm';

/**
 * A text[] as one parameter, in PostgreSQL's array literal: the statement's text is the same
 * whatever the number of values, so it is prepared once (db/pglite-prepared.ts,
 * db/postgres-prepared.ts), where `IN ($1, $2, …)` made one statement per length. (drizzle would
 * turn a bare JS array into a parenthesised list; and the embedded database's prepared path
 * sends text parameters only.)
 */
export function textArray(values: readonly string[]): SQL {
  return sql`${arrayLiteral(values)}::text[]`;
}

/** `{"a","b",NULL}`: every element quoted (numbers too: the literal is text), its quotes and backslashes escaped. */
export function arrayLiteral(values: ReadonlyArray<string | number | null>): string {
  return `{${values.map((value) => (value === null ? 'NULL' : `"${String(value).replace(/["\\]/g, '\\$&')}"`)).join(',')}}`;
}

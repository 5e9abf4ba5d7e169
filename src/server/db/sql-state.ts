/**
 * Whether the error, or one it wraps, carries one of the SQLSTATEs: drizzle puts the driver's
 * error in `cause`, and both drivers (pg and PGlite) put the SQLSTATE in `code`.
 */
export function hasSqlState(error: unknown, ...states: string[]): boolean {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'string' && states.includes(e.code)) return true;
  }
  return false;
}

/**
 * A prepared statement that no longer fits, so it must be prepared (or run unprepared) again:
 * dropped (26000, a DEALLOCATE), or a table change altered its result (0A000 "cached plan must
 * not change result type"). Used by both databases' prepared statements.
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '26000' || (code === '0A000' && typeof message === 'string' && message.includes('cached plan'));
}

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

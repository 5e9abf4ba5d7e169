import { setTimeout as sleep } from 'node:timers/promises';

/** Every seeded account's password (bench/seed.ts --password). */
export const BENCH_PASSWORD = 'benchmark-password';

/**
 * Resolves once the server at `base` answers at all (GET /api/me); throws after `tries` tries
 * `everyMs` apart. A server seeding or building a table first needs a larger `tries`.
 */
export async function untilAnswering(base: string, { tries = 240, everyMs = 250 } = {}): Promise<void> {
  for (let i = 0; i < tries; i++) {
    try {
      await fetch(`${base}/api/me`);
      return;
    } catch {
      await sleep(everyMs);
    }
  }
  throw new Error(`the server at ${base} did not start`);
}

/** Signs a seeded account in; its session cookie ("session=…"). */
export async function signIn(base: string, identifier: string): Promise<string> {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password: BENCH_PASSWORD }),
  });
  if (!login.ok) throw new Error(`bench sign-in as ${identifier} failed: ${login.status}`);
  return login.headers.get('set-cookie')!.split(';')[0]!;
}

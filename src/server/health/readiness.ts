import { randomBytes } from 'node:crypto';
import type { Database } from '../db/database.js';
import { MIGRATIONS } from '../db/migrations/index.js';
import type { Storage } from '../storage/storage.js';
import { appliedMigrations, selectOne } from './readiness.queries.js';

export type CheckName = 'database' | 'migrations' | 'storage' | 'redis' | 'changeFeed';
export type CheckResult = 'ok' | 'fail';

export interface Readiness {
  ready: boolean;
  checks: Partial<Record<CheckName, CheckResult>>;
}

/** What /readyz looks at; a check that does not apply to this setup is left out. */
export interface ReadinessSources {
  database: Database;
  storage: Storage;
  /** Redis, when the rate-limit counters are kept there. */
  redis?: { ping(): Promise<void> };
  /** The change feed, on PostgreSQL: whether its LISTEN connection is up. */
  changeFeed?: { readonly listening: boolean };
  /** How long one check may take before it counts as failed (a hung database is not ready). */
  timeoutMs?: number;
  /** How long a successful storage write is trusted, so a balancer probing every second does not write every second. */
  storageOkMs?: number;
  now?: () => number;
}

const CHECK_TIMEOUT_MS = 2_000;
const STORAGE_OK_MS = 10_000;
/** A few bytes under a key no upload can have (uploads live under images/ and icons/). */
const PROBE_BYTES = Buffer.from('dormboard readiness probe');

/**
 * Readiness: the database answers, every bundled migration is applied, storage takes a write,
 * Redis answers (when configured) and the change feed listens (PostgreSQL). Each check runs
 * under a timeout; probes that arrive while one run is going share it.
 */
export class ReadinessChecks {
  private readonly timeoutMs: number;
  private readonly storageOkMs: number;
  private readonly now: () => number;
  /** Per process: a probe overwrites its own file, never another process's. */
  private readonly probeKey = `health/probe-${randomBytes(8).toString('hex')}.png`;
  private storageOkUntil = 0;
  private migrationsApplied = false;
  private running: Promise<Readiness> | undefined;

  constructor(private readonly sources: ReadinessSources) {
    this.timeoutMs = sources.timeoutMs ?? CHECK_TIMEOUT_MS;
    this.storageOkMs = sources.storageOkMs ?? STORAGE_OK_MS;
    this.now = sources.now ?? Date.now;
  }

  check(): Promise<Readiness> {
    this.running ??= this.run().finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(): Promise<Readiness> {
    const checks: Array<[CheckName, () => Promise<void>]> = [
      ['database', () => this.database()],
      ['migrations', () => this.migrations()],
      ['storage', () => this.storage()],
    ];
    const { redis, changeFeed } = this.sources;
    if (redis) checks.push(['redis', () => redis.ping()]);
    if (changeFeed) {
      checks.push([
        'changeFeed',
        async () => {
          if (!changeFeed.listening) throw new Error('not listening');
        },
      ]);
    }
    const results = await Promise.all(
      checks.map(async ([name, run]): Promise<[CheckName, CheckResult]> => {
        try {
          await withTimeout(run(), this.timeoutMs);
          return [name, 'ok'];
        } catch {
          return [name, 'fail'];
        }
      }),
    );
    return { ready: results.every(([, result]) => result === 'ok'), checks: Object.fromEntries(results) };
  }

  private async database() {
    await selectOne(this.sources.database.orm);
  }

  /** Migrations are never undone: once all are there, they stay. */
  private async migrations() {
    if (this.migrationsApplied) return;
    const applied = await appliedMigrations(this.sources.database.orm);
    if (!MIGRATIONS.every((migration) => applied.has(migration.version))) throw new Error('migrations missing');
    this.migrationsApplied = true;
  }

  private async storage() {
    if (this.now() < this.storageOkUntil) return;
    await this.sources.storage.put(this.probeKey, PROBE_BYTES, 'image/png');
    await this.sources.storage.delete(this.probeKey);
    this.storageOkUntil = this.now() + this.storageOkMs;
  }
}

function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), ms);
  });
  // The loser's rejection must not go unhandled.
  work.catch(() => undefined);
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

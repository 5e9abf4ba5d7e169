import { subjectsOf, type Change, type Changes } from '../cache/changes.js';
import type { AppDb } from './database.js';

/**
 * Who made a change: a user (a moderator removing someone's post, not its author), or nobody
 * (null: the admin command line, a test changing rows itself).
 */
export interface Actor {
  id: string | null;
}

/** A transaction of the query builder (what AppDb.transaction hands its work). */
export type Transaction = Parameters<Parameters<AppDb['transaction']>[0]>[0];

/** Notes a change inside the transaction that makes it. */
export type Note = (actor: Actor, change: Change) => Promise<void>;

/**
 * Writes a change's notice into the transaction of its data: on PostgreSQL the feed
 * (change-feed.ts) marks the users concerned and queues its NOTIFY, which the database sends
 * only if the transaction commits.
 */
export interface NoticeWriter {
  write(tx: AppDb, userIds: string[], change: Change): Promise<void>;
}

/**
 * Writes and the notices of what they changed, committed together or not at all: a write that
 * commits is always announced (a connection lost right after the commit cannot leave the other
 * processes stale), and a write undone is never announced. This process's caches hear of each
 * change right after its commit. The embedded database has one process: no notice to write.
 */
export class ChangeNotices {
  private writer: NoticeWriter | undefined;

  constructor(
    private readonly db: AppDb,
    private readonly changes: Changes,
  ) {}

  /** Where other processes are told (PostgresChangeFeed). */
  writeWith(writer: NoticeWriter) {
    this.writer = writer;
  }

  /**
   * Runs `work` in one transaction; each change it notes (`note`) has its notice written in that
   * transaction, marking both the actor and the change's subjects (subjectsOf) for
   * read-your-writes. Once committed, this process's caches forget what the changes make stale.
   */
  async transaction<T>(work: (tx: Transaction, note: Note) => Promise<T>): Promise<T> {
    const noted: Change[] = [];
    const result = await this.db.transaction((tx) =>
      work(tx, async (actor, change) => {
        const concerned = new Set(subjectsOf(change));
        if (actor.id !== null) concerned.add(actor.id);
        // Always in the same order: two transactions never wait for each other's rows crosswise.
        await this.writer?.write(tx, [...concerned].sort(), change);
        noted.push(change);
      }),
    );
    for (const change of noted) this.changes.deliver(change);
    return result;
  }

  /** A change made outside any service's transaction (a test that sets suspended_until itself), by nobody. */
  changed(change: Change): Promise<void> {
    return this.transaction((_tx, note) => note({ id: null }, change));
  }
}

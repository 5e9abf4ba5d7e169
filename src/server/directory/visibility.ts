import { eq, gt, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { systemClock, type Clock } from '../clock.js';
import type { Change } from '../cache/changes.js';
import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import { builtOnce } from '../db/built-once.js';
import type { AppDb } from '../db/database.js';
import { textArray } from '../db/text-array.js';
import { blocks, users } from '../db/schema.js';

/**
 * THE visibility rule (design.md "One visibility rule", issue 17). Viewer V (a user, or nobody
 * when signed out) does not see user U, U's posts or U's entries in lists when
 * - U is suspended now (suspended_until > now), unless V is U; or
 * - a block exists between V and U, either way.
 * (A removed post is a deleted row: nothing to decide.)
 *
 * It has two forms that cannot drift apart, both built from the same two small cached sets
 * (whom the viewer blocked or was blocked by; who is suspended, until when): `Visibility.seenBy`
 * answers in memory for answers cached once for every viewer (the feed window, post pages,
 * related posts, search answers, profiles), filtered per request, and `amongVisible` turns the
 * same answer into the SQL condition uncached read queries put in their WHERE. `visibleTo`
 * states it over the tables themselves, for single-row checks in writes. tests/api/visibility.test.ts visits every
 * read path for every case, before and after the change, through both forms.
 *
 * One nuance: someone V blocked is still found by V on their profile (which says so and offers
 * Unblock: profileOf), but everything they post or appear in stays hidden from V.
 *
 * Boards (issue 18) add one clause: V sees board B when V sees B's owner and B is not secret,
 * or V owns B or is a member of B (invited or joined): `boardSeen`, applied to boards as cached
 * for everyone (boards/board-reads.ts) and as read for a write (boards/board-access.ts). The
 * posts on a board are then filtered by their authors like any other list.
 */

/**
 * The same rule as SQL over a column of user ids, for the read queries that list many users'
 * rows (feed pages, people search, follow lists): not one of the users hidden from the viewer
 * (SeenBy.hiddenIds, the very sets the in-memory form checks), as one array parameter. A short
 * list costs nothing per row, where a NOT EXISTS probe per row (below) cost the feed's later pages 3-4x
 * their time on PGlite (measured: 317 → 70 req/s).
 */
export function amongVisible(seen: SeenBy, userId: AnyPgColumn | SQL): SQL | undefined {
  const hidden = seen.hiddenIds();
  return hidden.length > 0 ? sql`${userId} <> all(${textArray(hidden)})` : undefined;
}

/**
 * The rule straight from the tables, for one row at a time where a cached set must not decide
 * (a write): suspended now (unless the viewer), or a block either way. Reports take its
 * signed-out form, blocks aside (moderation.queries.ts mayReport).
 */
export function visibleTo(viewerId: string | undefined, userId: AnyPgColumn | SQL): SQL {
  // An alias of its own: `userId` may itself be users.id of the statement around it.
  const notSuspended = sql`not exists (select 1 from ${users} as suspended_user where suspended_user.id = ${userId} and suspended_user.suspended_until > now())`;
  if (!viewerId) return notSuspended;
  return sql`(${userId} = ${viewerId} or ${notSuspended}) and not exists (select 1 from ${blocks} where (${blocks.blockerId} = ${viewerId} and ${blocks.blockedId} = ${userId}) or (${blocks.blockerId} = ${userId} and ${blocks.blockedId} = ${viewerId}))`;
}

/** A board as the rule needs it. */
export interface BoardAccess {
  ownerId: string;
  secret: boolean;
}

/** The board rule in memory, for one board already read with whether the viewer is a member. */
export function boardSeen(seen: SeenBy, viewerId: string | undefined, board: BoardAccess, viewerIsMember: boolean): boolean {
  if (!seen.sees(board.ownerId)) return false;
  return !board.secret || board.ownerId === viewerId || viewerIsMember;
}

/** What one viewer may see, in memory: built per request from two small cached sets. */
export interface SeenBy {
  /** Whether the user (their profile, posts and list entries) is visible to the viewer. */
  sees(userId: string): boolean;
  /** Whether the viewer blocked the user (their profile is then found, saying so). */
  blocked(userId: string): boolean;
  /** Whether the user is hidden by more than the viewer's own block: to the viewer, they do not exist. */
  hiddenOtherwise(userId: string): boolean;
  /** Everyone `sees` is false for (for the SQL form). */
  hiddenIds(): string[];
}

interface BlockSets {
  /** Whom the viewer blocked. */
  blocked: Set<string>;
  /** Who blocked the viewer. */
  blockedBy: Set<string>;
}

const NOBODY_SEES_EVERYONE: BlockSets = { blocked: new Set(), blockedBy: new Set() };

export class Visibility {
  /** Per viewer id: whom they blocked and who blocked them (both ways; a handful each). */
  private readonly blockSets: Region<BlockSets>;
  /**
   * Everyone suspended now or until a later time, with when it ends (ms): one small map per
   * process. Each check compares with the clock, so a suspension that ends needs no change:
   * the entry simply stops counting at that moment (the SQL form compares with now() alike).
   */
  private readonly suspensions: Region<Map<string, number>>;

  constructor(
    private readonly db: AppDb,
    cache: ReadCache,
    private readonly now: Clock = systemClock,
  ) {
    this.blockSets = cache.region('blocks of viewer', {
      staleAfter: (change: Change) => (change.kind === 'block' ? [change.blockerId, change.blockedId] : []),
      bytes: (sets) => 64 + (sets.blocked.size + sets.blockedBy.size) * 48,
    });
    this.suspensions = cache.region('suspended users', {
      staleAfter: (change: Change) => (change.kind === 'suspension' ? ALL : []),
      bytes: (map) => 64 + map.size * 64,
    });
  }

  /** The rule for one viewer (nobody when signed out), for filtering cached answers. */
  async seenBy(viewerId: string | undefined): Promise<SeenBy> {
    const [sets, suspended] = await Promise.all([this.blocksOf(viewerId), this.suspendedUsers()]);
    const now = this.now();
    const suspendedNow = (userId: string) => userId !== viewerId && (suspended.get(userId) ?? 0) > now;
    const hiddenOtherwise = (userId: string) => suspendedNow(userId) || sets.blockedBy.has(userId);
    const sees = (userId: string) => !hiddenOtherwise(userId) && !sets.blocked.has(userId);
    return {
      sees,
      blocked: (userId) => sets.blocked.has(userId),
      hiddenOtherwise,
      hiddenIds: () => [...new Set([...sets.blocked, ...sets.blockedBy, ...suspended.keys()])].filter((id) => !sees(id)),
    };
  }

  private blocksOf(viewerId: string | undefined): Promise<BlockSets> {
    if (!viewerId) return Promise.resolve(NOBODY_SEES_EVERYONE);
    return this.blockSets.get(viewerId, async () => {
      const rows = await blocksOfViewer(this.db).execute({ viewerId });
      const sets: BlockSets = { blocked: new Set(), blockedBy: new Set() };
      for (const row of rows) {
        if (row.blockerId === viewerId) sets.blocked.add(row.blockedId);
        else sets.blockedBy.add(row.blockerId);
      }
      return sets;
    });
  }

  private suspendedUsers(): Promise<Map<string, number>> {
    return this.suspensions.get('', async () => {
      // The partial index on suspended_until holds exactly these rows' candidates.
      const rows = await suspendedNow(this.db).execute();
      return new Map(rows.map((row) => [row.id, row.until!.getTime()]));
    });
  }
}

/** With every cache off, each request reads both sets: built once (db/built-once.ts). */
const blocksOfViewer = builtOnce((db) =>
  db
    .select({ blockerId: blocks.blockerId, blockedId: blocks.blockedId })
    .from(blocks)
    .where(or(eq(blocks.blockerId, sql.placeholder('viewerId')), eq(blocks.blockedId, sql.placeholder('viewerId'))))
    .prepare('blocks_of_viewer'),
);
const suspendedNow = builtOnce((db) =>
  db
    .select({ id: users.id, until: users.suspendedUntil })
    .from(users)
    .where(gt(users.suspendedUntil, sql`now()`))
    .prepare('suspended_users'),
);

/**
 * How many rows an answer cached for every viewer holds to give `limit` to each: a fifth more,
 * so that a viewer's few hidden authors still leave a full answer. (Someone hiding more than
 * that many of one answer's posts gets fewer; never someone hidden.)
 */
export const withRoomForHidden = (limit: number) => limit + Math.ceil(limit / 5);

/** Keeps the items whose user the viewer sees, then at most `limit` of them. */
export function visibleItems<T>(items: readonly T[], userIdOf: (item: T) => string, seen: SeenBy, limit = Infinity): T[] {
  const kept: T[] = [];
  for (const item of items) {
    if (kept.length >= limit) break;
    if (seen.sees(userIdOf(item))) kept.push(item);
  }
  return kept;
}

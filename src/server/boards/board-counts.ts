import { createHash } from 'node:crypto';
import type { Change } from '../cache/changes.js';
import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import type { AppDb } from '../db/database.js';
import type { SeenBy } from '../directory/visibility.js';
import * as queries from './board.queries.js';

/** A board as its count needs it: boards.post_count, kept by the triggers. */
export interface Counted {
  id: string;
  postCount: number;
}

/** Per board: how many of its saved posts are by the users of a hidden set, by that set's key. */
interface HiddenCounts {
  bySet: Map<string, number>;
}

/**
 * The boards whose saves a change may have changed: its own writes name it; a deleted post or
 * account may leave any board. For every region keyed by board that holds what is saved to it.
 */
export function savesChangedBy(change: Change): readonly string[] | typeof ALL {
  return change.kind === 'board'
    ? [change.boardId]
    : (change.kind === 'post' && change.deleted) || change.kind === 'account-deleted'
      ? ALL
      : [];
}

/** Hidden sets remembered per board (a viewer's blocks make one of their own); the oldest go first. */
const SETS_KEPT = 8;

/**
 * A board's count as one viewer may see it (issue 26 point 18: the stored count told a viewer
 * that a post of someone hidden from them was there): boards.post_count less the saved posts
 * whose authors the one visibility rule hides from the viewer (SeenBy.hiddenIds), as every list
 * leaves them out. Nothing to do for a viewer from whom nobody is hidden; otherwise one statement
 * for all the boards asked about, remembered per board and hidden set (everyone without blocks
 * of their own shares the set of suspended users).
 */
export class BoardCounts {
  private readonly hidden: Region<HiddenCounts>;

  constructor(
    private readonly db: AppDb,
    cache: ReadCache,
  ) {
    this.hidden = cache.region('hidden posts of board', {
      staleAfter: savesChangedBy,
      bytes: () => 64 + SETS_KEPT * 96,
    });
  }

  /** The count of each board, in order, as the viewer `seen` may see it. */
  async of(boards: readonly Counted[], seen: SeenBy): Promise<number[]> {
    const hiddenIds = seen.hiddenIds();
    if (hiddenIds.length === 0 || boards.length === 0) return boards.map((board) => board.postCount);
    const setKey = createHash('sha256')
      .update([...hiddenIds].sort().join(','))
      .digest('base64url');
    const entries = await Promise.all(boards.map((board) => this.hidden.get(board.id, async () => ({ bySet: new Map() }))));
    const missing = boards.filter((board, i) => board.postCount > 0 && !entries[i]!.bySet.has(setKey));
    const found = await queries.postsByAuthors(
      this.db,
      missing.map((board) => board.id),
      hiddenIds,
    );
    for (const board of missing) {
      const entry = entries[boards.indexOf(board)]!;
      if (entry.bySet.size >= SETS_KEPT) entry.bySet.delete(entry.bySet.keys().next().value!);
      entry.bySet.set(setKey, found.get(board.id) ?? 0);
    }
    return boards.map((board, i) => (board.postCount === 0 ? 0 : Math.max(0, board.postCount - entries[i]!.bySet.get(setKey)!)));
  }
}

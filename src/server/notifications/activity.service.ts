import { createHash } from 'node:crypto';
import type { ActivityGroup, ActivityPage, ReportOutcome } from '../../shared/api/activity.js';
import { ACTIVITY_PAGE_SIZE } from '../../shared/limits.js';
import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import { activityChange, type Change } from '../cache/changes.js';
import type { ChangeNotices } from '../db/change-notices.js';
import type { AppDb } from '../db/database.js';
import { iconUrl } from '../directory/icon-images.js';
import type { SeenBy, Visibility } from '../directory/visibility.js';
import { AppError } from '../http/app-error.js';
import { isPgTimestamp } from '../http/cursor.js';
import type { Viewer } from '../http/viewer.js';
import { imageSet } from '../posts/post-images.js';
import * as queries from './activity.queries.js';

/** Days one page looks through at most: a page costs the same however sparse the days are. */
const DAYS_PER_PAGE = 14;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** Where a page continues: the day, and the last group shown of it (none: the day from its start). */
interface ActivityCursor {
  day: string;
  after: { latest: string; key: string } | undefined;
}

function encode(cursor: ActivityCursor): string {
  return Buffer.from(JSON.stringify([cursor.day, cursor.after?.latest ?? '', cursor.after?.key ?? ''])).toString('base64url');
}

/** A real calendar day PostgreSQL takes: it has no year 0 ("0000-01-01" was a 500, not a 400). */
function isDay(text: string): boolean {
  return (
    DAY.test(text) &&
    !text.startsWith('0000') &&
    !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) &&
    new Date(`${text}T00:00:00Z`).toISOString().startsWith(text)
  );
}

function decode(cursor: string | undefined): ActivityCursor | undefined {
  if (cursor === undefined || cursor === '') return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 3 && value.every((part) => typeof part === 'string')) {
      const [day, latest, key] = value as [string, string, string];
      if (isDay(day) && latest === '' && key === '') return { day, after: undefined };
      if (isDay(day) && isPgTimestamp(latest) && key.length <= 100) return { day, after: { latest, key } };
    }
  } catch {
    // fall through
  }
  throw new AppError(400, 'BAD_REQUEST');
}

/** A page, and whom and what it names: its owners in the cache (ActivityService.firstPages). */
interface NamedPage {
  page: ActivityPage;
  owners: string[];
}

/** A group's id: its day and key, which Mark as read names. */
const groupId = (day: string, key: string) => `${day}.${key}`;

function parseGroupId(id: string): { day: string; key: string } {
  const day = id.slice(0, 10);
  const key = id.slice(11);
  if (!isDay(day) || id[10] !== '.' || key === '' || key.length > 100) throw new AppError(400, 'BAD_REQUEST');
  return { day, key };
}

/**
 * Where a viewer's kept page and count are found: the viewer, and whom they see hidden now. A
 * suspension ends with no change (visibility.ts compares its end with the clock): the hidden set
 * changes then, and so does the key.
 */
function keyOf(viewer: Viewer, seen: SeenBy): string {
  const hidden = seen.hiddenIds();
  if (hidden.length === 0) return viewer.id;
  return `${viewer.id}:${createHash('sha256')
    .update([...hidden].sort().join(','))
    .digest('base64url')}`;
}

/**
 * Which first pages a change makes stale (their owners, ActivityService.read): the viewer's, when
 * their rows or blocks change; any naming a user, post or board that changed; every one when
 * someone is suspended or deletes their account (whom each viewer sees changed).
 */
function staleFirstPages(change: Change): readonly string[] | typeof ALL {
  switch (change.kind) {
    case 'activity':
      return change.userIds === null ? ALL : change.userIds.map((id) => `viewer:${id}`);
    case 'block':
      return [`viewer:${change.blockerId}`, `viewer:${change.blockedId}`];
    case 'profile':
      return [`user:${change.userId}`];
    case 'post':
      return change.deleted ? [`post:${change.postId}`] : [];
    case 'board':
      return [`board:${change.boardId}`];
    case 'suspension':
    case 'account-deleted':
      return ALL;
    default:
      return [];
  }
}

/**
 * Which bells a change makes stale (their viewers): rows of theirs written, read or deleted, a
 * block; every one when a post is deleted (its rows go by a cascade: its author's, and those of
 * who reported it), or someone is suspended or deletes their account.
 */
function staleUnreadCounts(change: Change): readonly string[] | typeof ALL {
  switch (change.kind) {
    case 'activity':
    case 'block':
    case 'suspension':
    case 'account-deleted':
      return staleFirstPages(change);
    case 'post':
      return change.deleted ? ALL : [];
    default:
      return [];
  }
}

/**
 * /activity and the bell (issue 30). Rows are grouped here, on read, per key and UTC day, one
 * day at a time (the index is by recipient and day): a page reads the days it shows and no more,
 * in one statement with what the groups name (activity.queries.ts activityPage).
 * Everything goes through the visibility rule: actors hidden from the viewer (blocks, suspensions)
 * and boards they may no longer see are left out, of the groups and of their counts.
 */
export class ActivityService {
  /**
   * Each viewer's first page, as shown (the bell's tap, the page opened again after a row), kept
   * until the viewer's rows change (written, read, deleted: 'activity'), the viewer blocks or is
   * blocked, or a user, post or board it names changes. Later pages are read once each: not kept.
   */
  private readonly firstPages: Region<NamedPage>;
  /** Each viewer's bell, asked for on every page view: kept until the viewer's rows or blocks change. */
  private readonly unreadCounts: Region<{ viewerId: string; unread: number }>;

  constructor(
    private readonly db: AppDb,
    private readonly visibility: Visibility,
    cache: ReadCache,
    private readonly notices: ChangeNotices,
  ) {
    this.firstPages = cache.region('activity first page', {
      ownerOf: (page) => page.owners,
      staleAfter: staleFirstPages,
      bytes: (page) => JSON.stringify(page.page).length + page.owners.length * 40,
    });
    this.unreadCounts = cache.region('activity unread count', {
      ownerOf: (count) => `viewer:${count.viewerId}`,
      staleAfter: staleUnreadCounts,
      bytes: () => 120,
    });
  }

  async page(viewer: Viewer, cursor: string | undefined): Promise<ActivityPage> {
    const seen = await this.visibility.seenBy(viewer.id);
    if (cursor === undefined || cursor === '') {
      return (await this.firstPages.get(keyOf(viewer, seen), () => this.read(viewer, seen, undefined))).page;
    }
    return (await this.read(viewer, seen, cursor)).page;
  }

  /** A page, and whom and what it names (the cache's owners of it). */
  private async read(viewer: Viewer, seen: SeenBy, cursor: string | undefined): Promise<NamedPage> {
    const from = decode(cursor);
    const { rows, nextDay } = await queries.activityPage(this.db, {
      userId: viewer.id,
      seen,
      from,
      days: DAYS_PER_PAGE,
      limit: ACTIVITY_PAGE_SIZE + 1,
    });
    let next: ActivityCursor | undefined = nextDay === undefined ? undefined : { day: nextDay, after: undefined };
    if (rows.length > ACTIVITY_PAGE_SIZE) {
      const last = rows[ACTIVITY_PAGE_SIZE - 1]!;
      next = { day: last.day, after: { latest: last.latest, key: last.groupKey } };
      rows.length = ACTIVITY_PAGE_SIZE;
    }
    const owners = new Set([`viewer:${viewer.id}`]);
    for (const row of rows) {
      for (const actor of row.actors ?? []) owners.add(`user:${actor.id}`);
      if (row.post) owners.add(`post:${row.post.id}`);
      if (row.board) owners.add(`board:${row.board.id}`);
    }
    return { page: { groups: rows.map((row) => this.group(seen, row)), nextCursor: next ? encode(next) : null }, owners: [...owners] };
  }

  /**
   * A group as the page shows it. A post whose author is hidden from the viewer now (a reported
   * post's author who blocked the reporter, or was suspended since) is left out: the row stays,
   * without it.
   */
  private group(seen: SeenBy, row: queries.PageRow): ActivityGroup {
    const post = row.post && seen.sees(row.post.userId) ? row.post : null;
    const board = row.board;
    return {
      id: groupId(row.day, row.groupKey),
      kind: row.kind,
      actors: (row.actors ?? []).map((actor) => ({ username: actor.username, icon: iconUrl(actor.iconKey) })),
      count: row.count,
      unread: row.unread,
      at: new Date(row.latest).toISOString(),
      post: post ? { id: post.id, thumbnail: imageSet(post).variants[0]?.src ?? null } : null,
      board: board ? { id: board.id, name: board.name, slug: board.slug, owner: board.owner, secret: board.secret } : null,
      invite: row.kind === 'board_invite' ? (board?.membership === 'joined' ? 'joined' : 'pending') : null,
      reason: row.kind === 'post_removed' ? row.detail : null,
      until: row.kind === 'suspended' && row.until !== null ? new Date(row.until).toISOString() : null,
      outcome: row.kind === 'report_handled' ? (row.detail as ReportOutcome) : null,
    };
  }

  async unread(viewer: Viewer): Promise<number> {
    const seen = await this.visibility.seenBy(viewer.id);
    const count = await this.unreadCounts.get(keyOf(viewer, seen), async () => ({
      viewerId: viewer.id,
      unread: await queries.unreadCount(this.db, viewer.id, seen.hiddenIds()),
    }));
    return count.unread;
  }

  /** One group, or all, read; answers the bell's count afterwards. */
  async markRead(viewer: Viewer, group: string | undefined): Promise<number> {
    const which = group === undefined ? undefined : parseGroupId(group);
    await this.notices.transaction(async (tx, note) => {
      if (await queries.markRead(tx, viewer.id, which)) await note(viewer, activityChange([viewer.id]));
    });
    return this.unread(viewer);
  }

  /** Retention: deletes rows older than `days`, in batches (a first run after a long pause never holds the table for long). */
  async deleteOlderThan(days: number): Promise<void> {
    const batch = 5_000;
    for (let deleted = batch; deleted === batch;) {
      deleted = await this.notices.transaction(async (tx, note) => {
        const count = await queries.deleteOlderThan(tx, days, batch);
        if (count > 0) await note({ id: null }, { kind: 'activity', userIds: null });
        return count;
      });
    }
  }
}

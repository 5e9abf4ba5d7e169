import type { ActivityGroup, ActivityPage, ReportOutcome } from '../../shared/api/activity.js';
import { ACTIVITY_PAGE_SIZE } from '../../shared/limits.js';
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

/** A group's id: its day and key, which Mark as read names. */
const groupId = (day: string, key: string) => `${day}.${key}`;

function parseGroupId(id: string): { day: string; key: string } {
  const day = id.slice(0, 10);
  const key = id.slice(11);
  if (!isDay(day) || id[10] !== '.' || key === '' || key.length > 100) throw new AppError(400, 'BAD_REQUEST');
  return { day, key };
}

/**
 * /activity and the bell (issue 30). Rows are grouped here, on read, per key and UTC day, one
 * day at a time (the index is by recipient and day): a page reads the days it shows and no more.
 * Everything goes through the visibility rule: actors hidden from the viewer (blocks, suspensions)
 * and boards they may no longer see are left out, of the groups and of their counts.
 */
export class ActivityService {
  constructor(
    private readonly db: AppDb,
    private readonly visibility: Visibility,
  ) {}

  async page(viewer: Viewer, cursor: string | undefined): Promise<ActivityPage> {
    const from = decode(cursor);
    const seen = await this.visibility.seenBy(viewer.id);
    const found: Array<{ day: string; row: queries.GroupRow }> = [];
    let day = from?.day ?? (await queries.dayBefore(this.db, viewer.id, undefined));
    let after = from?.after;
    let next: ActivityCursor | undefined;
    for (let days = 0; day !== undefined; days++) {
      if (days === DAYS_PER_PAGE) {
        next = { day, after: undefined };
        break;
      }
      const want = ACTIVITY_PAGE_SIZE + 1 - found.length;
      const rows = await queries.groupsOfDay(this.db, { userId: viewer.id, day, seen, after, limit: want });
      for (const row of rows) found.push({ day, row });
      if (found.length > ACTIVITY_PAGE_SIZE) {
        const last = found[ACTIVITY_PAGE_SIZE - 1]!;
        next = { day: last.day, after: { latest: last.row.latest, key: last.row.groupKey } };
        found.length = ACTIVITY_PAGE_SIZE;
        break;
      }
      after = undefined;
      day = await queries.dayBefore(this.db, viewer.id, day);
    }
    return { groups: await this.hydrate(viewer, seen, found), nextCursor: next ? encode(next) : null };
  }

  /**
   * The groups with their actors' names and icons, posts' thumbnails and boards, three reads in
   * all. A post whose author is hidden from the viewer now (a reported post's author who blocked
   * the reporter, or was suspended since) is left out: the row stays, without it.
   */
  private async hydrate(viewer: Viewer, seen: SeenBy, found: Array<{ day: string; row: queries.GroupRow }>): Promise<ActivityGroup[]> {
    const distinct = (ids: Array<string | null>) => [...new Set(ids.filter((id): id is string => id !== null))];
    const actorIdsOf = (row: queries.GroupRow) => distinct(row.actorIds ?? []).slice(0, 3);
    const [actors, posts, boards] = await Promise.all([
      queries.actorsByIds(this.db, distinct(found.flatMap(({ row }) => actorIdsOf(row)))),
      queries.postsByIds(this.db, distinct(found.map(({ row }) => row.postId))),
      queries.boardsFor(this.db, viewer.id, distinct(found.map(({ row }) => row.boardId))),
    ]);
    return found.map(({ day, row }): ActivityGroup => {
      const post = posts.find((candidate) => candidate.id === row.postId && seen.sees(candidate.userId));
      const board = boards.find((candidate) => candidate.id === row.boardId);
      return {
        id: groupId(day, row.groupKey),
        kind: row.kind,
        actors: actorIdsOf(row).flatMap((id) => {
          const actor = actors.find((candidate) => candidate.id === id);
          return actor ? [{ username: actor.username, icon: iconUrl(actor.iconKey) }] : [];
        }),
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
    });
  }

  async unread(viewer: Viewer): Promise<number> {
    const seen = await this.visibility.seenBy(viewer.id);
    return queries.unreadCount(this.db, viewer.id, seen.hiddenIds());
  }

  /** One group, or all, read; answers the bell's count afterwards. */
  async markRead(viewer: Viewer, group: string | undefined): Promise<number> {
    await queries.markRead(this.db, viewer.id, group === undefined ? undefined : parseGroupId(group));
    return this.unread(viewer);
  }
}

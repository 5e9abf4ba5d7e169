import type { BoardDetail, BoardMember, BoardRole, BoardSummary } from '../../shared/api/boards.js';
import { iconUrl } from '../directory/icon-images.js';
import type { SeenBy } from '../directory/visibility.js';
import { imageSet } from '../posts/post-images.js';
import type { BoardRow, CoverRow, membersOf } from './board.queries.js';

/**
 * A board as a tile, with the cover the viewer may see (or none) and the count of the posts on
 * it they may see (board-counts.ts).
 */
export function toSummary(board: BoardRow, cover: CoverRow | undefined, count: number): BoardSummary {
  return {
    id: board.id,
    name: board.name,
    slug: board.slug,
    secret: board.secret,
    count,
    cover: cover ? imageSet(cover) : null,
    owner: { username: board.ownerUsername, icon: iconUrl(board.ownerIconKey) },
  };
}

type MemberRow = Awaited<ReturnType<typeof membersOf>>[number];

/**
 * The members the viewer may see: never someone hidden from them; the invited ones only for the
 * owner and the board's members (to anyone else an invitation is not theirs to know about).
 */
export function visibleMembers(rows: MemberRow[], role: BoardRole, seen: SeenBy): BoardMember[] {
  const insider = role !== 'viewer';
  return rows
    .filter((row) => seen.sees(row.userId) && (insider || row.joinedAt !== null))
    .map((row) => ({ username: row.username, icon: iconUrl(row.iconKey), joined: row.joinedAt !== null }));
}

export function toDetail(
  board: BoardRow,
  cover: CoverRow | undefined,
  count: number,
  role: BoardRole,
  members: BoardMember[],
): BoardDetail {
  // Which post is the chosen cover is the owner's business (it may be one hidden from others).
  const coverPostId = role === 'owner' ? board.coverPostId : null;
  return { ...toSummary(board, cover, count), description: board.description, coverPostId, role, members };
}

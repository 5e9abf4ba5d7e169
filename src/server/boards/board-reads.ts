import type { BoardList, BoardPostCard, BoardPostPage, BoardResponse } from '../../shared/api/boards.js';
import { BOARD_POSTS_PAGE_SIZE, BOARDS_PAGE_SIZE } from '../../shared/limits.js';
import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import type { Change } from '../cache/changes.js';
import type { AppDb } from '../db/database.js';
import type { UserDirectory } from '../directory/user-directory.js';
import { normalizeUsername } from '../directory/username.js';
import { boardSeen, visibleItems, withRoomForHidden, type SeenBy } from '../directory/visibility.js';
import { AppError } from '../http/app-error.js';
import { decodeCursor, encodeCursor, pgTimeMicros, toPage, type PageKey } from '../http/cursor.js';
import { imageSet } from '../posts/post-images.js';
import { roleOf } from './board-access.js';
import { savesChangedBy, type BoardCounts } from './board-counts.js';
import { toDetail, toSummary, visibleMembers } from './board-json.js';
import * as queries from './board.queries.js';

type PostRow = Awaited<ReturnType<typeof queries.boardPostsPage>>[number];
type MemberRow = Awaited<ReturnType<typeof queries.membersOf>>[number];

/** A board as cached for every viewer; each request filters it through the visibility rule. */
interface BoardEntry {
  board: queries.BoardRow;
  members: MemberRow[];
  /** The newest saves: a page and a fifth (room for a viewer's hidden authors), and whether more follow. */
  posts: PostRow[];
  more: boolean;
  chosenCover: queries.CoverCandidate | undefined;
  /**
   * Later pages as they are asked for, by cursor, each like `posts`: they go with the entry when
   * the board changes. At most LATER_PAGES_KEPT, the oldest asked forgotten first.
   */
  laterPages: Map<string, Promise<{ posts: PostRow[]; more: boolean }>>;
}

/** Later pages kept per cached board (each ~60 rows): paging deep into a big board stays bounded. */
const LATER_PAGES_KEPT = 4;

/** A Boards tab's boards for every viewer, each with who may see it if secret (covers: CoverCandidates). */
interface TabEntry {
  boards: Array<{ row: queries.TabBoardRow; memberIds: string[] }>;
}

type CoverCandidates = { chosen?: queries.CoverCandidate; newest: queries.CoverCandidate[] };

/** Covers kept per board of a tab: a viewer hiding the authors of all of them reads the database. */
const TAB_COVER_CANDIDATES = 3;

/**
 * What changes which cached board reads (the three regions below): a board write names its
 * board, addresses and whose tabs list it; a deleted post may be on any board; blocks end
 * memberships; profiles carry icons; a deleted account takes its boards, saves and memberships.
 * Suspensions need nothing: every answer is filtered per request.
 */
function staleBoards(change: Change): readonly string[] | typeof ALL {
  if (change.kind === 'board') return [change.boardId];
  if (change.kind === 'post') return change.deleted ? ALL : [];
  return change.kind === 'account-deleted' || change.kind === 'profile' || change.kind === 'block' ? ALL : [];
}

function staleTabs(change: Change): readonly string[] | typeof ALL {
  if (change.kind === 'board') return change.usernames;
  if (change.kind === 'block') return [change.blockerUsername, change.blockedUsername];
  if (change.kind === 'post') return change.deleted ? ALL : [];
  return change.kind === 'account-deleted' || change.kind === 'profile' ? ALL : [];
}

const address = (username: string, slug: string) => `${username}/${slug}`;

/**
 * Board pages and Boards tabs (issue 18) as every viewer shares them: the database's answers are
 * cached whole (ReadCache) and each request keeps what the viewer may see (directory/visibility.ts:
 * `boardSeen`, `visibleItems`), so a board read costs no statement once warm (measured: PGlite
 * answered a board page at ~290 req/s uncached). Writes never read from here (BoardAccess).
 */
export class BoardReads {
  /** Who may see the board at an address, or null for none: hidden and missing answer alike. */
  private readonly addresses: Region<queries.BoardAddress | null>;
  private readonly entries: Region<BoardEntry>;
  private readonly tabs: Region<TabEntry>;
  private readonly covers: Region<CoverCandidates>;

  constructor(
    private readonly db: AppDb,
    cache: ReadCache,
    private readonly directory: UserDirectory,
    private readonly counts: BoardCounts,
  ) {
    this.addresses = cache.region('board by address', {
      // A block may end a membership (in the block's transaction): every address, as the entries.
      staleAfter: (change) =>
        change.kind === 'board'
          ? change.slugs.map((slug) => address(change.ownerUsername, slug))
          : change.kind === 'account-deleted' || change.kind === 'block'
            ? ALL
            : [],
      // The key (up to ~270 characters, chosen by whoever asks) counts too: no board there is an entry.
      bytes: (found) => 400 + (found ? found.memberIds.length * 32 : 0),
    });
    this.entries = cache.region('board', {
      staleAfter: staleBoards,
      // The later pages it may come to hold count from the start: each about as big as the first.
      bytes: (entry) => JSON.stringify({ ...entry, laterPages: undefined }).length * (entry.more ? 1 + LATER_PAGES_KEPT : 1),
    });
    this.tabs = cache.region('boards of user', { staleAfter: staleTabs });
    this.covers = cache.region('board covers', { staleAfter: savesChangedBy });
  }

  async board(rawUsername: string, slug: string, viewerId: string | undefined): Promise<BoardResponse> {
    const { entry, role, seen } = await this.find(rawUsername, slug, viewerId);
    const [cover, count] = await Promise.all([this.coverOf(entry, seen), this.countOf(entry, seen)]);
    return { board: toDetail(entry.board, cover, count, role, visibleMembers(entry.members, role, seen)) };
  }

  /** A board's posts whose authors the viewer sees, newest saved first; the first page from memory. */
  async posts(rawUsername: string, slug: string, viewerId: string | undefined, cursor: string | undefined): Promise<BoardPostPage> {
    const after = decodeCursor(cursor);
    const { entry, seen } = await this.find(rawUsername, slug, viewerId);
    const card = (row: PostRow): BoardPostCard => ({
      id: row.id,
      description: row.description,
      image: imageSet(row),
      savedByMe: row.savedBy === viewerId,
    });
    const cached = after ? await this.laterPage(entry, cursor!, after) : entry;
    const shown = visibleItems(cached.posts, (row) => row.userId, seen, BOARD_POSTS_PAGE_SIZE + 1);
    // Enough of the cached rows are visible to fill the page, or there are no more: no statement.
    if (shown.length > BOARD_POSTS_PAGE_SIZE || !cached.more) {
      const page = toPage(shown, BOARD_POSTS_PAGE_SIZE);
      return { posts: page.rows.map(card), nextCursor: page.nextCursor };
    }
    const rows = await queries.boardPostsPage(this.db, { boardId: entry.board.id, seen, after, limit: BOARD_POSTS_PAGE_SIZE });
    const page = toPage(rows, BOARD_POSTS_PAGE_SIZE);
    return { posts: page.rows.map(card), nextCursor: page.nextCursor };
  }

  /** The Boards tab: the boards the user owns or joined that the viewer sees, 24 at a time. */
  async boardsOf(rawUsername: string, viewerId: string | undefined, cursor: string | undefined): Promise<BoardList> {
    const after = decodeCursor(cursor);
    const user = await this.directory.publicUser(rawUsername, viewerId);
    const seen = await this.directory.visibility.seenBy(viewerId);
    // Someone the viewer blocked: their profile is found, nothing they appear in (as their posts).
    if (!seen.sees(user.id)) return { boards: [], nextCursor: null };
    const tab = await this.tabs.get(user.username, () => this.loadTab(user.id));
    const afterMicros = after && pgTimeMicros(after.sortTime);
    const shown: TabEntry['boards'] = [];
    for (const item of tab.boards) {
      if (shown.length > BOARDS_PAGE_SIZE) break;
      const { row } = item;
      if (after && !(row.sortMicros < afterMicros! || (row.sortMicros === afterMicros && row.id < after.id))) continue;
      if (boardSeen(seen, viewerId, row, item.memberIds.includes(viewerId ?? ''))) shown.push(item);
    }
    const page = shown.slice(0, BOARDS_PAGE_SIZE);
    const candidates = await this.coverCandidates(page.map(({ row }) => row.id));
    const covers = candidates.map((each) => pickCover(each, seen));
    // A board whose cached covers are all hidden from the viewer: its newest visible from the database.
    const missing = page.filter((item, i) => covers[i] === undefined && item.row.postCount > candidates[i]!.newest.length);
    const [fetched, counts] = await Promise.all([
      queries.coversOf(
        this.db,
        missing.map((item) => item.row.id),
        seen,
      ),
      this.counts.of(
        page.map((item) => item.row),
        seen,
      ),
    ]);
    const last = page.at(-1);
    return {
      boards: page.map((item, i) => toSummary(item.row, covers[i] ?? fetched.get(item.row.id), counts[i]!)),
      nextCursor: shown.length > BOARDS_PAGE_SIZE && last ? encodeCursor(last.row) : null,
    };
  }

  /**
   * The board at the address if the viewer may see it, else BOARD_NOT_FOUND. A board that does
   * not exist and one hidden from the viewer take the same steps (issue 26: a secret slug
   * answered in 3.6 ms, a missing one in 6.3 ms): one cached answer per address, "none" too,
   * read by the same statement on a miss, and the same rule; only a board the viewer sees is loaded.
   */
  private async find(rawUsername: string, slug: string, viewerId: string | undefined) {
    const username = normalizeUsername(rawUsername);
    // Slugs are stored lower-case (boardSlug): an address typed with capitals still finds it.
    const key = address(username, slug.toLowerCase());
    const found = await this.addresses.get(key, () => queries.findBoardAddress(this.db, username, slug.toLowerCase()));
    const seen = await this.directory.visibility.seenBy(viewerId);
    if (!found || !boardSeen(seen, viewerId, found, found.memberIds.includes(viewerId ?? ''))) throw new AppError(404, 'BOARD_NOT_FOUND');
    const entry = await this.entries.get(found.id, () => this.loadBoard(found.id));
    const membership = entry.members.find((member) => member.userId === viewerId);
    // The entry is the board as it is now (a change between the two reads): its answer counts.
    if (!boardSeen(seen, viewerId, entry.board, membership !== undefined)) throw new AppError(404, 'BOARD_NOT_FOUND');
    const role = roleOf(entry.board, viewerId, membership ? (membership.joinedAt ? 'joined' : 'invited') : null);
    return { entry, role, seen };
  }

  /** The saves after `cursor`, unfiltered, from the entry once read (a page and a fifth, like the first). */
  private laterPage(entry: BoardEntry, cursor: string, after: PageKey) {
    let page = entry.laterPages.get(cursor);
    if (!page) {
      const limit = withRoomForHidden(BOARD_POSTS_PAGE_SIZE);
      page = queries
        .boardPostsPage(this.db, { boardId: entry.board.id, after, limit })
        .then((rows) => ({ posts: rows.slice(0, limit), more: rows.length > limit }));
      // A failed read is not kept.
      page.catch(() => entry.laterPages.delete(cursor));
      if (entry.laterPages.size >= LATER_PAGES_KEPT) entry.laterPages.delete(entry.laterPages.keys().next().value!);
      entry.laterPages.set(cursor, page);
    }
    return page;
  }

  private async loadBoard(id: string): Promise<BoardEntry> {
    const found = await queries.findBoard(this.db, id, undefined);
    if (!found) throw new AppError(404, 'BOARD_NOT_FOUND');
    const limit = withRoomForHidden(BOARD_POSTS_PAGE_SIZE);
    const [members, rows, covers] = await Promise.all([
      queries.membersOf(this.db, id),
      queries.boardPostsPage(this.db, { boardId: id, limit }),
      found.board.coverPostId ? queries.coverCandidates(this.db, [id], 0) : undefined,
    ]);
    return {
      board: found.board,
      members,
      posts: rows.slice(0, limit),
      more: rows.length > limit,
      chosenCover: covers?.get(id)?.chosen,
      laterPages: new Map(),
    };
  }

  private async loadTab(userId: string): Promise<TabEntry> {
    const rows = await queries.allBoardsOfUser(this.db, userId);
    const members = await queries.memberIdsOf(
      this.db,
      rows.filter((row) => row.secret).map((row) => row.id),
    );
    return { boards: rows.map((row) => ({ row, memberIds: members.get(row.id) ?? [] })) };
  }

  /**
   * The cover candidates of a page of boards, each cached on its own (a save to one board leaves
   * the others'); the ones not cached are read in one statement.
   */
  private coverCandidates(boardIds: string[]): Promise<CoverCandidates[]> {
    const missing: string[] = [];
    let batch: Promise<Map<string, CoverCandidates>> | undefined;
    // The region calls `load` at once for each miss, so the batch starts after all have asked.
    const load = (id: string) => {
      missing.push(id);
      batch ??= Promise.resolve().then(() => queries.coverCandidates(this.db, missing, TAB_COVER_CANDIDATES));
      return batch.then((found) => found.get(id) ?? { newest: [] });
    };
    return Promise.all(boardIds.map((id) => this.covers.get(id, () => load(id))));
  }

  /** The count the viewer may see: from the cached saves when they are all there, else BoardCounts. */
  private async countOf(entry: BoardEntry, seen: SeenBy): Promise<number> {
    if (!entry.more) return visibleItems(entry.posts, (row) => row.userId, seen).length;
    return (await this.counts.of([entry.board], seen))[0]!;
  }

  /** The board page's cover: the chosen one if the viewer sees its author, else the newest they see. */
  private async coverOf(entry: BoardEntry, seen: SeenBy): Promise<queries.CoverRow | undefined> {
    // The board's newest saves are its cover candidates here (the tab keeps three).
    const cover = pickCover({ chosen: entry.chosenCover, newest: entry.posts.map((row) => ({ ...row, boardId: entry.board.id })) }, seen);
    if (cover || !entry.more) return cover;
    return (await queries.coversOf(this.db, [entry.board.id], seen)).get(entry.board.id);
  }
}

function pickCover(covers: CoverCandidates, seen: SeenBy) {
  if (covers.chosen && seen.sees(covers.chosen.userId)) return covers.chosen;
  return covers.newest.find((cover) => seen.sees(cover.userId));
}

/**
 * The boards part of the benchmark data (issue 18), drawn by bench/seed.ts after the posts and
 * follows: boards of many users, with one big board at the 10,000-post limit, one user with
 * many boards, secret boards, shared boards with collaborators, chosen covers, and the saves.
 *
 * Drawing (planBoards) is pure and deterministic for a PRNG; loading (loadBoards) writes the
 * plan in bulk, letting migration 12's triggers keep every board's post_count as the app does.
 */
import { slugOf } from '../src/server/boards/board-slug.js';
import { newId } from '../src/server/ids.js';
import { BOARD_MEMBERS_MAX, BOARD_POSTS_MAX, BOARDS_PER_USER_MAX } from '../src/shared/limits.js';
import { int, shuffle, zipf, type Random } from './seed-random.js';
import * as words from './seed-words.js';

const DAY_MS = 24 * 60 * 60 * 1000;
const HOUR_MS = 60 * 60 * 1000;
/** The big board's share of all saves (at most the limit): 10,000 of the default 200,000. */
const BIG_BOARD_SHARE = 0.05;
/** The user with many boards owns this share of all boards (200 of the default 2,000). */
const MANY_BOARDS_SHARE = 0.1;
const MANY_BOARDS_MAX = 200;
const SECRET_SHARE = 0.15;
const SHARED_SHARE = 0.1;
/** Boards nobody saved to yet. */
const EMPTY_SHARE = 0.03;
const CHOSEN_COVER_SHARE = 0.1;
/** On a shared board, the share of saves made by collaborators (the rest: the owner). */
export const COLLABORATOR_SAVES = 0.25;

export interface PlannedMember {
  user: number;
  invitedAt: number;
  /** Null while only invited. */
  joinedAt: number | null;
}

export interface PlannedBoard {
  id: string;
  /** Index into the users. */
  owner: number;
  name: string;
  slug: string;
  description: string;
  secret: boolean;
  createdAt: number;
  members: PlannedMember[];
  /** Posts to save (indexes into the posts), each once. */
  posts: number[];
  /** Index into `posts` of the chosen cover, or null for "the newest saved". */
  cover: number | null;
}

export interface BoardPlan {
  boards: PlannedBoard[];
  /** The board at (or nearest below) the post limit: boards[0]. */
  big: PlannedBoard;
  /** The user who owns the most boards. */
  manyBoardsOwner: number;
}

/** The big board's size: 5% of the saves, at most the limit and the posts there are. */
function bigBoardSize(posts: number, saves: number): number {
  return Math.min(BOARD_POSTS_MAX, posts, saves, Math.max(1, Math.ceil(saves * BIG_BOARD_SHARE)));
}

/** How many boards the many-boards user owns, and the most anyone else may own (fewer). */
function ownerLimits(boards: number): { many: number; perOwner: number } {
  const many = Math.min(MANY_BOARDS_MAX, BOARDS_PER_USER_MAX, Math.floor(boards * MANY_BOARDS_SHARE), Math.max(0, boards - 1));
  return { many, perOwner: Math.min(BOARDS_PER_USER_MAX, Math.max(1, many - 1)) };
}

/** Throws a RangeError when the counts cannot be drawn (before the seeder writes anything). */
export function checkBoardCounts(counts: { users: number; posts: number; boards: number; saves: number }): void {
  const { users, posts, boards, saves } = counts;
  if (saves > 0 && boards === 0) throw new RangeError('saves need boards');
  if (boards === 0) return;
  if (users < 2) throw new RangeError('boards need at least two users');
  if (saves > 0 && posts === 0) throw new RangeError('saves need posts');
  const big = bigBoardSize(posts, saves);
  // No board is bigger than the big one.
  if (saves > big * boards) throw new RangeError(`${boards} boards of at most ${big} posts cannot hold ${saves} saves`);
  const { many, perOwner } = ownerLimits(boards);
  if (boards - many > (users - 1) * perOwner) {
    throw new RangeError(`${users} users cannot own ${boards} boards (at most ${perOwner} each besides the one with ${many})`);
  }
}

/**
 * Draws `boardCount` boards for `userCount` users and `saves` saves of `postCount` posts (post
 * i was made at `postTimes[i]`). Board 0 is the big one (5% of the saves, at most the limit,
 * never secret); the user with many boards (10% of them, at most 200) owns the next ones; the
 * rest go to other users with a long tail, none over the per-user limit. Board sizes have a
 * long tail too, none bigger than the big board; a few boards are empty. Saved posts are
 * skewed towards popular ones, and saved after both the post and the board were made.
 */
export function planBoards(options: {
  random: Random;
  userCount: number;
  postTimes: ArrayLike<number>;
  boards: number;
  saves: number;
  now: number;
}): BoardPlan | null {
  const { random, userCount, boards: boardCount, saves, now } = options;
  const postCount = options.postTimes.length;
  checkBoardCounts({ users: userCount, posts: postCount, boards: boardCount, saves });
  if (boardCount === 0) return null;

  // ---- owners
  const userOrder = shuffle(
    random,
    Array.from({ length: userCount }, (_, index) => index),
  );
  const manyBoardsOwner = userOrder[0]!;
  const bigOwner = userOrder[1]!;
  const { many: manyCount, perOwner } = ownerLimits(boardCount);
  const owners = [bigOwner, ...Array.from({ length: manyCount }, () => manyBoardsOwner)];
  const owned = new Uint32Array(userCount);
  owned[bigOwner] = 1;
  owned[manyBoardsOwner] = manyCount;
  // Everyone else: a long tail over the other users (rank r weighs 1/(r + 20)), each under the
  // per-user limit and under the many-boards user's count, who stays the one with the most.
  const others = userOrder.slice(1);
  const ownerRank = zipf(others.length, 1, 20);
  while (owners.length < boardCount) {
    let owner = others[ownerRank(random)]!;
    while (owned[owner]! >= perOwner) owner = others[int(random, 0, others.length - 1)]!;
    owned[owner]! += 1;
    owners.push(owner);
  }

  // ---- sizes: the big board, then the rest by long-tailed weights, filled up to a cap.
  const big = bigBoardSize(postCount, saves);
  const sizes = new Array<number>(boardCount).fill(0);
  sizes[0] = big;
  const weights = owners.map((_, index) => (index === 0 || random() < EMPTY_SHARE ? 0 : random() ** -0.8));
  fill(sizes, weights, saves - big, big);

  // ---- boards
  const names = new Map<number, Set<string>>();
  const uniqueName = (owner: number) => {
    const taken = names.get(owner) ?? new Set();
    names.set(owner, taken);
    const base = words.boardName(random);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base} ${n}`;
    taken.add(name.toLowerCase());
    return name;
  };
  const popularRank = zipf(postCount || 1, 1, 50);
  const popularOrder = shuffle(
    random,
    Array.from({ length: postCount }, (_, index) => index),
  );
  const boards = owners.map((owner, index): PlannedBoard => {
    const name = uniqueName(owner);
    const id = newId();
    const createdAt = now - Math.floor(random() * 365 * DAY_MS);
    const members: PlannedMember[] = [];
    const memberCount = index === 0 ? 3 : random() < SHARED_SHARE ? int(random, 1, 4) : 0;
    while (members.length < Math.min(memberCount, BOARD_MEMBERS_MAX)) {
      const user = int(random, 0, userCount - 1);
      if (user === owner || members.some((member) => member.user === user)) continue;
      const invitedAt = createdAt + Math.floor(random() * 7 * DAY_MS);
      const joined = index === 0 || random() < 0.8;
      members.push({ user, invitedAt, joinedAt: joined ? invitedAt + Math.floor(random() * 48 * HOUR_MS) : null });
    }
    // Distinct posts: mostly popular ones, the rest (and every repeat) uniform.
    const chosen = new Set<number>();
    while (chosen.size < sizes[index]!) {
      chosen.add(random() < 0.6 ? popularOrder[popularRank(random)]! : int(random, 0, postCount - 1));
    }
    const posts = [...chosen];
    return {
      id,
      owner,
      name,
      // As the server makes slugs: the name's words and a tail from the board's own id.
      slug: slugOf(name, id),
      description: words.boardDescription(random),
      secret: index !== 0 && random() < SECRET_SHARE,
      createdAt,
      members,
      posts,
      cover: posts.length > 0 && random() < CHOSEN_COVER_SHARE ? int(random, 0, posts.length - 1) : null,
    };
  });
  return { boards, big: boards[0]!, manyBoardsOwner };
}

/**
 * Adds `total` to `sizes` in proportion to `weights`, none above `cap`; when every weighted
 * entry is full, the unweighted ones take the rest. Exact: the sizes grow by `total` in all.
 */
function fill(sizes: number[], weights: number[], total: number, cap: number) {
  let remaining = total;
  for (const pass of [weights, weights.map((weight, index) => (weight > 0 || index === 0 ? 0 : 1))]) {
    let open = pass.map((weight, index) => (weight > 0 && sizes[index]! < cap ? index : -1)).filter((index) => index >= 0);
    while (remaining > 0 && open.length > 0) {
      const sum = open.reduce((total, index) => total + pass[index]!, 0);
      let given = 0;
      for (const index of open) {
        const add = Math.min(cap - sizes[index]!, Math.floor((remaining * pass[index]!) / sum));
        sizes[index]! += add;
        given += add;
      }
      remaining -= given;
      open = open.filter((index) => sizes[index]! < cap);
      if (given === 0) {
        // What floor() left over: one each, heaviest first.
        for (const index of [...open].sort((a, b) => pass[b]! - pass[a]!)) {
          if (remaining === 0) break;
          sizes[index]! += 1;
          remaining -= 1;
        }
        open = open.filter((index) => sizes[index]! < cap);
      }
    }
  }
  if (remaining > 0) throw new RangeError(`the boards cannot hold ${remaining} more saves`);
}

/** A save's time: after the post, the board (and the saver's joining), before now. */
export function saveTime(random: Random, earliest: number, now: number): number {
  return earliest + Math.floor(random() * Math.max(1, now - earliest));
}

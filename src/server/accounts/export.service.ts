import { finished } from 'node:stream/promises';
import type { PassThrough, Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { ZipFile } from 'yazl';
import type { UserRow } from '../auth/auth.queries.js';
import { ConcurrencyGate } from '../concurrency-gate.js';
import type { RateLimitConfig } from '../config.js';
import type { AppDb } from '../db/database.js';
import { largestIconKey } from '../directory/icon-images.js';
import { followList } from '../follows/follow.queries.js';
import { AppError } from '../http/app-error.js';
import type { PageKey } from '../http/cursor.js';
import type { RateLimiter } from '../http/rate-limiter.js';
import { fullImageKey } from '../posts/post-images.js';
import type { Storage } from '../storage/storage.js';
import { addStored, exportFileName, ICON_NAME, JsonArrayEntry, photoName, readmeText } from './export-archive.js';
import {
  exportBoardMembers,
  exportBoards,
  exportBoardSaves,
  exportNotifications,
  exportNotificationSettings,
  exportSingleSignOns,
  ownPostsPage,
  type ExportPostRow,
} from './export.queries.js';

/** Rows read at a time: a page of posts is ~100 KB of JSON at most. */
const PAGE_ROWS = 200;

/** yazl's output is a PassThrough; its types say only ReadableStream. */
const output = (zip: ZipFile) => zip.outputStream as PassThrough;

/** Sent when every export slot of this process is busy: an export takes seconds to minutes. */
export const exportBusy = () => new AppError(503, 'EXPORT_BUSY', undefined, { 'retry-after': '30' });

export interface DataExportDeps {
  db: AppDb;
  storage: Storage;
  limiter: RateLimiter;
  limits: RateLimitConfig;
  /** Exports written at once by this process (EXPORT_CONCURRENCY). */
  concurrency: number;
  appName: string;
  log: FastifyBaseLogger;
}

export interface StartedExport {
  fileName: string;
  /** The ZIP, written as it is read. */
  stream: Readable;
}

/**
 * Download My Data (issue 16): a ZIP of the account's own data, streamed as it is made.
 *
 * Its cost is bounded three ways: each account may start RATE_LIMIT_EXPORTS_PER_USER an hour;
 * this process writes at most EXPORT_CONCURRENCY at once and refuses the next at once (503) — a
 * waiting download would hold a connection and show nothing — and each holds one photo and one
 * page of rows at a time, waiting for the response to drain before reading more. An account has
 * one export at a time (409 for a second): one account cannot take every slot. A reader that
 * stops reading is cut off by the route (EXPORT_STALL_MS), which stops its export.
 */
export class DataExport {
  private readonly gate: ConcurrencyGate;
  /** Accounts with an export being made by this process, from the check to the ZIP's end. */
  private readonly running = new Set<string>();

  constructor(private readonly deps: DataExportDeps) {
    this.gate = new ConcurrencyGate(deps.concurrency, 0, exportBusy);
  }

  /** Exports being written now, of how many at once (metrics). */
  get slots(): { inUse: number; capacity: number } {
    return { inUse: this.gate.size.active, capacity: this.gate.concurrency };
  }

  /**
   * Refuses a second export of the account (409, not counted), counts the export against the
   * account's limit (429), takes a slot (503, and the count is given back), and returns the ZIP's
   * stream; the slot is held until the ZIP is written or `signal` says its reader went away.
   */
  async start(user: UserRow, signal: AbortSignal, now = new Date()): Promise<StartedExport> {
    // Taken before the first await, so two requests at once cannot both pass.
    if (this.running.has(user.id)) throw new AppError(409, 'EXPORT_ALREADY_RUNNING');
    this.running.add(user.id);
    try {
      return await this.make(user, signal, now);
    } catch (error) {
      this.running.delete(user.id);
      throw error;
    }
  }

  /** start() once the account holds its one turn; the turn is given back when the ZIP ends or fails. */
  private async make(user: UserRow, signal: AbortSignal, now: Date): Promise<StartedExport> {
    const { limiter, limits } = this.deps;
    const [slot] = await limiter.take(
      [{ key: `export:user:${user.id}`, limit: limits.exportsPerUser }],
      limits.exportWindowMs,
      'EXPORTING_TOO_OFTEN',
    );
    const stream = await new Promise<Readable>((resolve, reject) => {
      this.gate
        .run(async () => {
          const zip = new ZipFile();
          zip.on('error', (error: Error) => output(zip).destroy(error));
          // The ZIP's stream closed before the ZIP was written (the response destroyed it, its
          // reader being gone) also stops the export: writes into a destroyed stream are never
          // taken, and waiting for them would hold the slot until the process ends.
          const closed = new AbortController();
          output(zip).once('close', () => closed.abort());
          const stop = AbortSignal.any([signal, closed.signal]);
          resolve(output(zip));
          try {
            await this.write(zip, user, now, stop);
            zip.end();
            await finished(output(zip));
          } catch (error) {
            // A reader that went away is not a failure: the ZIP is simply no longer wanted.
            if (!stop.aborted) this.deps.log.error({ err: error, userId: user.id }, 'data export failed');
            output(zip).destroy();
          } finally {
            this.running.delete(user.id);
          }
        })
        .catch(async (error: unknown) => {
          await slot?.release();
          reject(error instanceof Error ? error : new Error(String(error)));
        });
    });
    return { fileName: exportFileName(this.deps.appName, user.username, now), stream };
  }

  /** Every entry, in order; JSON and README deflated, images stored as they are (already compressed). */
  private async write(zip: ZipFile, user: UserRow, now: Date, signal: AbortSignal): Promise<void> {
    const missing: string[] = [];
    const iconBody = user.iconKey ? await this.read(largestIconKey(user.iconKey), signal) : undefined;
    if (user.iconKey && !iconBody) missing.push(`Your profile icon (${ICON_NAME})`);
    const account = {
      username: user.username,
      email: user.email,
      // Issue 29: whether the address was proved, and a new one waiting to be (never the link or code).
      emailVerified: user.emailVerifiedAt?.toISOString() ?? null,
      pendingEmail: user.pendingEmail,
      singleSignOn: (await exportSingleSignOns(this.deps.db, user.id)).map((row) => ({ ...row, linked: row.linked.toISOString() })),
      bio: user.bio,
      created: user.createdAt.toISOString(),
      // Issue 30: the topics turned off in the app and on as a push, and the devices pushed to.
      notifications: await exportNotificationSettings(this.deps.db, user.id),
      profileIcon: iconBody ? ICON_NAME : null,
    };
    zip.addBuffer(Buffer.from(`${JSON.stringify(account, null, 2)}\n`), 'account.json', { mtime: now });
    if (iconBody) await addStored(zip, output(zip), iconBody, ICON_NAME, now, signal);

    // First walk: the photos. Missing ones are remembered (by post) so posts.json can say so.
    const missingPhotos = new Set<string>();
    let newest: PageKey | undefined;
    for await (const post of this.ownPosts(user.id, undefined, signal)) {
      newest ??= { sortTime: post.sortTime, id: post.id };
      const body = await this.read(fullImageKey(post.imageKey), signal);
      if (!body) {
        missingPhotos.add(post.id);
        missing.push(`The photo of your post of ${post.createdAt.toISOString()} (${photoName(post)})`);
        continue;
      }
      await addStored(zip, output(zip), body, photoName(post), post.createdAt, signal);
    }

    // Second walk: posts.json, over the same posts (none newer than the first walk's newest).
    const postsJson = new JsonArrayEntry(zip, 'posts.json', signal);
    if (newest) {
      for await (const post of this.ownPosts(user.id, newest, signal)) {
        await postsJson.push({
          description: post.description,
          link: post.link,
          hashtags: post.hashtags,
          created: post.createdAt.toISOString(),
          photo: missingPhotos.has(post.id) ? null : photoName(post),
        });
      }
    }
    postsJson.end();

    for (const side of ['followers', 'following'] as const) {
      const entry = new JsonArrayEntry(zip, `${side}.json`, signal);
      for await (const username of this.followUsernames(user.id, side, signal)) await entry.push(username);
      entry.end();
    }

    const boardsJson = new JsonArrayEntry(zip, 'boards.json', signal);
    for (const board of await exportBoards(this.deps.db, user.id)) await boardsJson.push(await this.boardEntry(board, user.id, signal));
    boardsJson.end();

    // Issue 30: a page at a time, like the posts.
    const notificationsJson = new JsonArrayEntry(zip, 'notifications.json', signal);
    for await (const row of this.ownNotifications(user.id, signal)) await notificationsJson.push(row);
    notificationsJson.end();

    zip.addBuffer(Buffer.from(readmeText({ appName: this.deps.appName, username: user.username, now, missing })), 'README.txt', {
      mtime: now,
    });
  }

  /** The user's notifications newest first, a page at a time, as notifications.json lists them. */
  private async *ownNotifications(userId: string, signal: AbortSignal) {
    let after: PageKey | undefined;
    for (;;) {
      signal.throwIfAborted();
      const page = await exportNotifications(this.deps.db, { userId, after, limit: PAGE_ROWS });
      for (const row of page) {
        yield {
          kind: row.kind,
          by: row.actor,
          post: row.postId,
          board: row.board,
          detail: row.detail,
          until: row.until?.toISOString() ?? null,
          read: row.read,
          at: row.createdAt.toISOString(),
        };
      }
      if (page.length < PAGE_ROWS) return;
      const last = page.at(-1)!;
      after = { sortTime: last.sortTime, id: last.id };
    }
  }

  /** A stored file, or undefined when storage has none (the export goes on without it). */
  private async read(key: string, signal: AbortSignal): Promise<Buffer | undefined> {
    signal.throwIfAborted();
    return (await this.deps.storage.get(key))?.body;
  }

  /** The user's posts newest first, a page at a time; `through`: none newer than that one. */
  private async *ownPosts(userId: string, through: PageKey | undefined, signal: AbortSignal): AsyncGenerator<ExportPostRow> {
    let after: PageKey | undefined;
    for (;;) {
      signal.throwIfAborted();
      const page = await ownPostsPage(this.deps.db, { userId, after, through, limit: PAGE_ROWS });
      yield* page;
      if (page.length < PAGE_ROWS) return;
      const last = page.at(-1)!;
      after = { sortTime: last.sortTime, id: last.id };
    }
  }

  /**
   * One board of boards.json: the user's own with everything on it and whom they invited; a
   * joined one with only what the user saved there. One board's saves (at most 10,000) at a time.
   */
  private async boardEntry(board: Awaited<ReturnType<typeof exportBoards>>[number], userId: string, signal: AbortSignal) {
    const own = board.ownerId === userId;
    const saves: Array<{ post: string; address: string; saved: string }> = [];
    let after: PageKey | undefined;
    for (;;) {
      signal.throwIfAborted();
      const page = await exportBoardSaves(this.deps.db, { boardId: board.id, savedBy: own ? undefined : userId, after, limit: PAGE_ROWS });
      for (const save of page) saves.push({ post: save.postId, address: `/post/${save.postId}`, saved: save.savedAt.toISOString() });
      if (page.length < PAGE_ROWS) break;
      const last = page.at(-1)!;
      after = { sortTime: last.sortTime, id: last.postId };
    }
    const members = own
      ? (await exportBoardMembers(this.deps.db, board.id)).map((member) => ({
          username: member.username,
          joined: member.joinedAt !== null,
        }))
      : undefined;
    return {
      name: board.name,
      owner: board.owner,
      role: own ? 'owner' : 'collaborator',
      address: `/@${board.owner}/boards/${board.slug}`,
      description: board.description,
      secret: board.secret,
      created: board.createdAt.toISOString(),
      ...(members ? { members } : {}),
      posts: saves,
    };
  }

  /** Usernames on one side of the user's follows, newest first, a page at a time (public already). */
  private async *followUsernames(userId: string, side: 'followers' | 'following', signal: AbortSignal): AsyncGenerator<string> {
    let after: PageKey | undefined;
    for (;;) {
      signal.throwIfAborted();
      // followList reads one row more than asked, to tell whether another page follows.
      // The user's own record, as stored (a block already removed the follows it hides).
      const rows = await followList(this.deps.db, { userId, seen: undefined, side, after, limit: PAGE_ROWS });
      const page = rows.slice(0, PAGE_ROWS);
      for (const row of page) yield row.username;
      if (rows.length <= PAGE_ROWS) return;
      const last = page.at(-1)!;
      after = { sortTime: last.sortTime, id: last.id };
    }
  }
}

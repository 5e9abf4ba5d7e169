import { systemClock, type Clock } from '../clock.js';
import { encodeCursor } from '../http/cursor.js';
import type { CardRow } from './post.queries.js';

export type WindowRow = CardRow & { userId: string };

interface Window {
  rows: Array<WindowRow & { json: string }>;
  /** The window holds every post there is (fewer than it asked for). */
  complete: boolean;
  loadedAt: number;
}

/**
 * The newest posts of everyone, held for a moment (ttlMs) with each card already serialized:
 * the first page of anyone's home feed is cut from it without touching the database. The
 * process that creates or deletes a post drops it at once; other processes see the change
 * within ttlMs. When the window can't fill a viewer's page (they wrote most recent posts),
 * the caller falls back to the database.
 */
export class FeedCache {
  private window: Promise<Window> | undefined;

  constructor(
    private readonly load: (limit: number) => Promise<WindowRow[]>,
    private readonly toJson: (row: CardRow) => string,
    private readonly ttlMs: number,
    private readonly size: number,
    private readonly now: Clock = systemClock,
  ) {}

  invalidate() {
    this.window = undefined;
  }

  private async current(): Promise<Window> {
    const cached = this.window;
    if (cached) {
      const window = await cached.catch(() => undefined);
      if (window && this.now() - window.loadedAt < this.ttlMs) return window;
      if (this.window !== cached) return this.current();
    }
    // One load at a time: concurrent requests share it.
    const loading = this.load(this.size + 1).then((rows) => ({
      rows: rows.slice(0, this.size).map((row) => ({ ...row, json: this.toJson(row) })),
      complete: rows.length <= this.size,
      loadedAt: this.now(),
    }));
    this.window = loading;
    loading.catch(() => {
      if (this.window === loading) this.window = undefined;
    });
    return loading;
  }

  /** The first page as JSON for this viewer, or undefined when the window can't tell. */
  async firstPage(viewerId: string | undefined, pageSize: number): Promise<string | undefined> {
    if (this.ttlMs <= 0) return undefined;
    const window = await this.current();
    const visible = viewerId ? window.rows.filter((row) => row.userId !== viewerId) : window.rows;
    let nextCursor: string | null;
    if (visible.length > pageSize) nextCursor = encodeCursor(visible[pageSize - 1]!);
    else if (window.complete) nextCursor = null;
    else return undefined;
    const page = visible.slice(0, pageSize);
    return `{"posts":[${page.map((row) => row.json).join(',')}],"nextCursor":${JSON.stringify(nextCursor)}}`;
  }
}

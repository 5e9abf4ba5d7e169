import type { PostCard, PostPage } from '../../shared/api/posts.js';
import { serializedArray, serializedJson, serializedObject, type SerializedJson } from '../../shared/api/serialized-json.js';
import { ALL, type ReadCache, type Region } from '../cache/read-cache.js';
import type { SeenBy } from '../directory/visibility.js';
import { encodeCursor } from '../http/cursor.js';
import type { CardRow } from './post.queries.js';

export type WindowRow = CardRow;

interface Window {
  rows: Array<WindowRow & { json: SerializedJson<PostCard> }>;
  /** The window holds every post there is (fewer than it asked for). */
  complete: boolean;
}

/**
 * The newest posts of everyone, held with each card already serialized:
 * the first page of anyone's home feed is cut from it without touching the database. Any new or
 * deleted post (or account) makes it stale (ReadCache). Each viewer's page leaves out their own
 * posts and those the visibility rule hides from them (blocks, suspensions), applied per request.
 * When the window can't fill a viewer's page (they wrote, or hide, most recent posts), the
 * caller falls back to the database, whose query applies the same rule in SQL.
 */
export class FeedCache {
  private readonly window: Region<Window>;

  constructor(
    private readonly cache: ReadCache,
    private readonly load: (limit: number) => Promise<WindowRow[]>,
    private readonly toJson: (row: CardRow) => SerializedJson<PostCard>,
    private readonly size: number,
  ) {
    this.window = cache.region('newest posts', {
      staleAfter: (change) => (change.kind === 'post' || change.kind === 'account-deleted' ? ALL : []),
      bytes: (window) => window.rows.reduce((sum, row) => sum + row.json.length * 2, 64),
    });
  }

  private current(): Promise<Window> {
    return this.window.get('', async () => {
      const rows = await this.load(this.size + 1);
      return {
        rows: rows.slice(0, this.size).map((row) => ({ ...row, json: this.toJson(row) })),
        complete: rows.length <= this.size,
      };
    });
  }

  /** The first page as JSON for this viewer, or undefined when the window can't tell. */
  async firstPage(viewerId: string | undefined, seen: SeenBy, pageSize: number): Promise<SerializedJson<PostPage> | undefined> {
    if (!this.cache.caching) return undefined;
    const window = await this.current();
    const visible = window.rows.filter((row) => row.userId !== viewerId && seen.sees(row.userId));
    let nextCursor: string | null;
    if (visible.length > pageSize) nextCursor = encodeCursor(visible[pageSize - 1]!);
    else if (window.complete) nextCursor = null;
    else return undefined;
    const page = visible.slice(0, pageSize);
    return serializedObject<PostPage>({ posts: serializedArray(page.map((row) => row.json)), nextCursor: serializedJson(nextCursor) });
  }
}

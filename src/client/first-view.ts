import type { MeResponse } from '../shared/api/auth';
import type { PostPage, PostResponse } from '../shared/api/posts';

/** What the server sends with a page (server/http/client-app.ts). */
export interface FirstView {
  /** GET /api/me's answer; null when nobody is signed in. */
  me: MeResponse | null;
  /** On the home page only. */
  feed?: PostPage;
  /** On a post's page only: GET /api/posts/:id's answer. */
  post?: PostResponse;
}

/**
 * The first view sent with the page (issue 28): who is signed in (or that nobody is), on the
 * home page GET /api/posts's first page, on a post's page the post, so the screen renders
 * without waiting for them. Read once, then removed: later screens ask the API as always.
 * Undefined when the page came without it or it does not read as one. It is not read with the
 * routes' schemas: those arrive beside the first request (api/http.ts), and the server that
 * built them is the one that serves this page.
 */
export function takeFirstView(): FirstView | undefined {
  const block = document.getElementById('first-view');
  if (!block) return undefined;
  block.remove();
  try {
    const value: unknown = JSON.parse(block.textContent ?? '');
    return isFirstView(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isFirstView(value: unknown): value is FirstView {
  if (!isObject(value)) return false;
  const { me, feed, post } = value;
  const meReads = me === null || (isObject(me) && isObject(me.user));
  const feedReads = feed === undefined || (isObject(feed) && Array.isArray(feed.posts));
  const postReads = post === undefined || (isObject(post) && isObject(post.post) && typeof post.post.id === 'string');
  return meReads && feedReads && postReads && (me !== null || (feed === undefined && post === undefined));
}

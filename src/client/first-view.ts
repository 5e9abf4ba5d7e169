import type { MeResponse } from '../shared/api/auth';
import type { PostPage } from '../shared/api/posts';

/** What the server sends with a signed-in viewer's home page (server/http/client-app.ts). */
export interface FirstView {
  me: MeResponse;
  feed: PostPage;
}

/**
 * The home page's first view, sent with the page (issue 28): the answers of GET /api/me and GET
 * /api/posts for this viewer, so the feed renders without waiting for them. Read once, then
 * removed: a later visit to the feed asks the API as always. Undefined when the page came without
 * it (signed out, another page) or it does not read as one. It is not read with the routes'
 * schemas: those arrive beside the first request (api/answers.ts), and the server that built them
 * is the one that serves this page.
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

function isFirstView(value: unknown): value is FirstView {
  if (typeof value !== 'object' || value === null) return false;
  const { me, feed } = value as Partial<Record<keyof FirstView, { user?: unknown; posts?: unknown }>>;
  return typeof me?.user === 'object' && me.user !== null && Array.isArray(feed?.posts);
}

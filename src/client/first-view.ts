import type { MeResponse } from '../shared/api/auth';
import type { PostPage } from '../shared/api/posts';

/** What the server sends with a signed-in viewer's home page (server/http/client-app.ts). */
export interface FirstView {
  me: MeResponse;
  /** On the home page only. */
  feed?: PostPage;
}

/**
 * A signed-in viewer's first view, sent with the page (issue 28): the answer of GET /api/me, and
 * on the home page GET /api/posts's first page, so the screen renders without waiting for them.
 * Read once, then removed: later screens ask the API as always. Undefined when the page came
 * without it (signed out) or it does not read as one. It is not read with the routes' schemas:
 * those arrive beside the first request (api/answers.ts), and the server that built them is the
 * one that serves this page.
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
  return typeof me?.user === 'object' && me.user !== null && (feed === undefined || Array.isArray(feed.posts));
}

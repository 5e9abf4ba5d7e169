// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { act } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Feed } from '../../src/client/features/posts';
import { PostGrid } from '../../src/client/features/posts/components/PostGrid';
import { ProfilePage } from '../../src/client/features/people/ProfilePage';
import * as COPY from '../../src/shared/copy';
import { ERRORS } from '../../src/shared/errors';
import { card, failure, held, http, json, me, renderApp, sent, server, profile } from './harness';

/**
 * happy-dom lays nothing out, so nothing ever nears the viewport: this observer lets a test
 * scroll, calling every observed element's callback as the browser would when it comes near.
 */
const observers = new Set<{ callback: IntersectionObserverCallback; elements: Element[] }>();
class ScrollableObserver {
  private entry: { callback: IntersectionObserverCallback; elements: Element[] };
  constructor(callback: IntersectionObserverCallback) {
    this.entry = { callback, elements: [] };
    observers.add(this.entry);
  }
  observe(element: Element) {
    this.entry.elements.push(element);
  }
  unobserve(element: Element) {
    this.entry.elements = this.entry.elements.filter((observed) => observed !== element);
  }
  disconnect() {
    observers.delete(this.entry);
  }
}
function scrollToEnd() {
  act(() => {
    for (const { callback, elements } of observers) {
      callback(
        elements.map((target) => ({ target, isIntersecting: true }) as unknown as IntersectionObserverEntry),
        {} as IntersectionObserver,
      );
    }
  });
}
const original = globalThis.IntersectionObserver;
beforeEach(() => {
  globalThis.IntersectionObserver = ScrollableObserver as unknown as typeof IntersectionObserver;
});
afterEach(() => {
  globalThis.IntersectionObserver = original;
  observers.clear();
});

describe('InfinitePostGrid (the feed)', () => {
  it('shows placeholder cards, then the posts, then the next page as the end nears', async () => {
    const first = held();
    const second = held();
    server.use(
      http.get('/api/posts', async ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        if (!cursor) {
          await first.gate;
          return json({ posts: [card('a'), card('b', 1.5)], nextCursor: 'c1' });
        }
        await second.gate;
        return json({ posts: [card('c')], nextCursor: null });
      }),
    );
    renderApp(<Feed />);
    expect(screen.getByRole('status', { name: '' }).textContent).toContain('Loading posts');
    expect(screen.getByTestId('feed-skeleton')).toBeTruthy();
    first.release();

    const list = await screen.findByRole('list', { name: 'Posts' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    scrollToEnd();
    expect(await screen.findByText('Loading more posts')).toBeTruthy();
    expect(sent('GET /api/posts?cursor=c1')).toBe(1);
    second.release();

    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(3));
    expect(screen.queryByText('Loading more posts')).toBeNull();
    // The last page named no next one: scrolling on asks for nothing.
    scrollToEnd();
    expect(requestsFor('/api/posts')).toBe(2);
  });

  it("shows the spec's empty line with the way to Upload", async () => {
    server.use(http.get('/api/posts', () => json({ posts: [], nextCursor: null })));
    renderApp(<Feed />);
    expect(await screen.findByText(COPY.feed.empty)).toBeTruthy();
    expect(screen.getByRole('link', { name: COPY.upload.title }).getAttribute('href')).toBe('/upload');
  });

  it('says something went wrong when the first page fails', async () => {
    server.use(http.get('/api/posts', () => failure(500)));
    renderApp(<Feed />);
    expect(await screen.findByText(ERRORS.GENERIC)).toBeTruthy();
  });

  it('calls an answer that is not a page of posts an error, not a page', async () => {
    server.use(http.get('/api/posts', () => json({ posts: [{ id: 'a' }], nextCursor: null })));
    renderApp(<Feed />);
    expect(await screen.findByText(ERRORS.GENERIC)).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Posts' })).toBeNull();
  });
});

describe('InfinitePostGrid (a profile)', () => {
  it("serves a profile's posts too: its own label, and its own empty state", async () => {
    server.use(
      http.get('/api/users/maya', () => json({ user: profile('maya') })),
      http.get('/api/users/maya/posts', () => json({ posts: [card('m1'), card('m2')], nextCursor: null })),
      http.get(`/api/users/${me.username}`, () => json({ user: profile(me.username, { uid: me.uid }) })),
      http.get(`/api/users/${me.username}/posts`, () => json({ posts: [], nextCursor: null })),
    );
    const view = renderApp(<ProfilePage username="maya" />);
    const list = await screen.findByRole('list', { name: 'Posts by @maya' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    view.unmount();

    renderApp(<ProfilePage username={me.username} />);
    const empty = (await screen.findByText(COPY.profile.noPosts)).parentElement!;
    expect(within(empty).getByRole('link', { name: COPY.upload.title }).getAttribute('href')).toBe('/upload');
  });
});

describe('PostGrid', () => {
  it('renders the first screen of cards, then a few more each time the last one nears the screen', async () => {
    // 60 square cards in happy-dom's 1024 px window: 4 columns, so the first five rows are the first pass.
    const posts = Array.from({ length: 60 }, (_, i) => card(`p${i}`));
    renderApp(<PostGrid posts={posts} label="Discover" />);
    const list = await screen.findByRole('list', { name: 'Discover' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(20);
    scrollToEnd();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(28));
    scrollToEnd();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(36));
    // The cards keep their order: the 36th rendered is the 36th post.
    expect(within(list).getAllByRole('listitem')[35]!.querySelector('img')!.getAttribute('alt')).toBe('Post p35');
  });

  it('renders every card of a short list at once, with no marker left behind', async () => {
    const posts = Array.from({ length: 6 }, (_, i) => card(`s${i}`));
    const view = renderApp(<PostGrid posts={posts} label="Discover" />);
    const list = await screen.findByRole('list', { name: 'Discover' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(6);
    expect(view.container.querySelector('[aria-hidden="true"]')).toBeNull();
  });
});

function requestsFor(path: string) {
  return sent(`GET ${path}`) + sent(`GET ${path}?cursor=c1`);
}

// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BrowserRouter, Link, Route, Switch, useLocation, useNavigate, useParams } from '../../src/client/lib/router';
import { useGoBack } from '../../src/client/ui/use-go-back';

/**
 * What lib/router.tsx adds to wouter, in a real browser history (happy-dom's): entries numbered
 * as React Router numbered them (use-go-back reads idx), parameters decoded once, a Link to the
 * current page replacing its entry; and the route order App.tsx relies on.
 */

const entry = () => window.history.state as { usr?: unknown; key?: string; idx?: number } | null;

/** What the screen knows: where it is, the matched route and its parameters. */
function Probe({ route }: { route: string }) {
  const { pathname, key, state } = useLocation();
  const params = useParams();
  const navigate = useNavigate();
  const goBack = useGoBack();
  return (
    <>
      <output data-testid="where">{JSON.stringify({ route, pathname, key, state, params })}</output>
      <button type="button" onClick={() => navigate('/post/p1', { state: 'from the test' })}>
        push
      </button>
      <button type="button" onClick={() => navigate('/post/p2', { replace: true })}>
        replace
      </button>
      <button type="button" onClick={goBack}>
        back
      </button>
      <Link to="/post/p1">post p1</Link>
    </>
  );
}

function renderAt(path: string) {
  window.history.replaceState(null, '', path);
  render(
    <BrowserRouter>
      <Switch>
        <Route path="/">
          <Probe route="home" />
        </Route>
        <Route path="/login">
          <Probe route="login" />
        </Route>
        <Route path="/search/:query">
          <Probe route="search" />
        </Route>
        <Route path="/post/:id">
          <Probe route="post" />
        </Route>
        <Route path="/:handle">
          <Probe route="profile" />
        </Route>
        <Route path="/:handle/boards/:slug">
          <Probe route="board" />
        </Route>
        <Route>
          <Probe route="not found" />
        </Route>
      </Switch>
    </BrowserRouter>,
  );
}

const where = () =>
  JSON.parse(screen.getByTestId('where').textContent) as {
    route: string;
    pathname: string;
    key: string;
    state: unknown;
    params: Record<string, string>;
  };

beforeEach(() => window.history.replaceState(null, '', '/'));
afterEach(cleanup);

describe('history entries', () => {
  it('are numbered from the tab’s first page, carrying a new key and the state given', () => {
    renderAt('/');
    expect(where()).toMatchObject({ route: 'home', key: 'default', state: null });

    fireEvent.click(screen.getByRole('button', { name: 'push' }));
    expect(where()).toMatchObject({ route: 'post', pathname: '/post/p1', state: 'from the test', params: { id: 'p1' } });
    expect(entry()).toMatchObject({ idx: 1, usr: 'from the test' });
    const pushed = where().key;
    expect(pushed).not.toBe('default');

    // A replaced entry keeps its place, with a key of its own.
    fireEvent.click(screen.getByRole('button', { name: 'replace' }));
    expect(where()).toMatchObject({ pathname: '/post/p2', params: { id: 'p2' } });
    expect(entry()).toMatchObject({ idx: 1 });
    expect(where().key).not.toBe(pushed);
  });

  it('Back from the tab’s first page of ours goes home, in place of that page', () => {
    renderAt('/post/shared-link');
    const length = window.history.length;
    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    expect(where()).toMatchObject({ route: 'home', pathname: '/' });
    expect(entry()).toMatchObject({ idx: 0 });
    expect(window.history.length).toBe(length);
  });

  it('Back after a step of ours is one step back in history', async () => {
    renderAt('/');
    fireEvent.click(screen.getByRole('button', { name: 'push' }));
    expect(entry()).toMatchObject({ idx: 1 });
    fireEvent.click(screen.getByRole('button', { name: 'back' }));
    await waitFor(() => expect(where()).toMatchObject({ route: 'home', pathname: '/' }));
    expect(entry()).toBeNull();
  });

  it('a Link to the page you are on replaces its entry; to another page, adds one', () => {
    renderAt('/');
    const length = window.history.length;
    fireEvent.click(screen.getByRole('link', { name: 'post p1' }));
    expect(where()).toMatchObject({ route: 'post', pathname: '/post/p1' });
    expect(entry()).toMatchObject({ idx: 1 });
    expect(window.history.length).toBe(length + 1);
    const first = where().key;

    fireEvent.click(screen.getByRole('link', { name: 'post p1' }));
    expect(entry()).toMatchObject({ idx: 1 });
    expect(window.history.length).toBe(length + 1);
    // Still a new key: a screen that failed (RouteErrorBoundary) tries again.
    expect(where().key).not.toBe(first);
  });
});

describe('routes', () => {
  it('decode each parameter once, as React Router did', () => {
    renderAt('/search/%2541%20off');
    expect(where()).toMatchObject({ route: 'search', params: { query: '%41 off' } });
    cleanup();
    renderAt('/search/%23studentliving');
    expect(where()).toMatchObject({ route: 'search', params: { query: '#studentliving' } });
    cleanup();
    renderAt('/search/50%25');
    expect(where()).toMatchObject({ route: 'search', params: { query: '50%' } });
    cleanup();
    renderAt('/%40maya/boards/a%2Fb%3Fc');
    expect(where()).toMatchObject({ route: 'board', params: { handle: '@maya', slug: 'a/b?c' } });
  });

  it('match case-insensitively, a trailing slash allowed, the first match winning; anything else is not found', () => {
    renderAt('/LOGIN/');
    expect(where()).toMatchObject({ route: 'login' });
    cleanup();
    renderAt('/@maya');
    expect(where()).toMatchObject({ route: 'profile', params: { handle: '@maya' } });
    cleanup();
    renderAt('/search');
    expect(where()).toMatchObject({ route: 'profile', params: { handle: 'search' } });
    cleanup();
    renderAt('/post/p1/extra');
    expect(where()).toMatchObject({ route: 'not found' });
  });
});

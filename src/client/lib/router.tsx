/**
 * The client's router: the part of React Router's declarative API this app uses (BrowserRouter,
 * Routes/Route with pathless layout routes and Outlet, Link, Navigate, useNavigate, useParams,
 * useLocation, useSearchParams; MemoryRouter for the tests), in ~2 KB gzip instead of React
 * Router's ~13 KB in the boot bundle (issue 28: initial JS ≤ 100 KB).
 *
 * It keeps React Router's behaviour where the app can tell: the same history entries
 * (`history.state` = { usr, key, idx }, so use-go-back.ts's idx and a reload keep working), route
 * ranking (a static segment beats a parameter, then the earlier route), case-insensitive matching
 * with trailing slashes allowed, decoded parameters, a Link to the current location replacing
 * its entry, and location changes rendered in a transition.
 */
import {
  Children,
  createContext,
  isValidElement,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useLayoutEffect,
  useMemo,
  useState,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';

export interface Location {
  pathname: string;
  search: string;
  hash: string;
  state: unknown;
  /** A new one for every entry ('default' for the first page of the tab). */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

/** How a router moves through its history: the browser's, or an in-memory list (tests). */
interface History {
  location: () => Location;
  push: (to: string, state: unknown) => void;
  replace: (to: string, state: unknown) => void;
  go: (delta: number) => void;
  listen: (onChange: () => void) => () => void;
}

interface RouterState {
  location: Location;
  navigate: NavigateFunction;
}

const RouterContext = createContext<RouterState | null>(null);
const OutletContext = createContext<ReactNode>(null);
const ParamsContext = createContext<Readonly<Record<string, string>>>({});

const newKey = () => Math.random().toString(36).slice(2, 10);

function splitPath(to: string): Pick<Location, 'pathname' | 'search' | 'hash'> {
  const url = new URL(to, 'http://localhost');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
}

interface EntryState {
  usr?: unknown;
  key?: string;
  idx?: number;
}

function browserHistory(): History {
  const entry = () => (window.history.state ?? {}) as EntryState;
  // The first page of the tab is entry 0 (React Router's numbering, which use-go-back reads).
  if (entry().idx === undefined) window.history.replaceState({ ...entry(), idx: 0 }, '');
  const write = (method: 'pushState' | 'replaceState', to: string, state: unknown, idx: number) =>
    window.history[method]({ usr: state, key: newKey(), idx }, '', to);
  const listeners = new Set<() => void>();
  return {
    location: () => {
      const { usr = null, key = 'default' } = entry();
      const { pathname, search, hash } = window.location;
      return { pathname, search, hash, state: usr, key };
    },
    push: (to, state) => {
      write('pushState', to, state, (entry().idx ?? 0) + 1);
      listeners.forEach((listener) => listener());
    },
    replace: (to, state) => {
      write('replaceState', to, state, entry().idx ?? 0);
      listeners.forEach((listener) => listener());
    },
    go: (delta) => window.history.go(delta),
    listen: (onChange) => {
      listeners.add(onChange);
      window.addEventListener('popstate', onChange);
      return () => {
        listeners.delete(onChange);
        window.removeEventListener('popstate', onChange);
      };
    },
  };
}

function memoryHistory(initialEntries: string[]): History {
  const entries: Location[] = initialEntries.map((to, index) => ({
    ...splitPath(to),
    state: null,
    key: index === 0 ? 'default' : newKey(),
  }));
  let index = entries.length - 1;
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  return {
    location: () => entries[index]!,
    push: (to, state) => {
      entries.splice(index + 1, entries.length, { ...splitPath(to), state, key: newKey() });
      index += 1;
      changed();
    },
    replace: (to, state) => {
      entries[index] = { ...splitPath(to), state, key: newKey() };
      changed();
    },
    go: (delta) => {
      index = Math.min(Math.max(index + delta, 0), entries.length - 1);
      changed();
    },
    listen: (onChange) => {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}

function Router({ history, children }: { history: History; children: ReactNode }) {
  const [location, setLocation] = useState(history.location);
  useLayoutEffect(() => history.listen(() => startTransition(() => setLocation(history.location()))), [history]);
  const navigate = useCallback<NavigateFunction>(
    (to, options = {}) => {
      if (typeof to === 'number') history.go(to);
      else if (options.replace) history.replace(to, options.state ?? null);
      else history.push(to, options.state ?? null);
    },
    [history],
  );
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function BrowserRouter({ children }: { children: ReactNode }) {
  const [history] = useState(browserHistory);
  return <Router history={history}>{children}</Router>;
}

export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: string[]; children: ReactNode }) {
  const [history] = useState(() => memoryHistory(initialEntries));
  return <Router history={history}>{children}</Router>;
}

function useRouter(): RouterState {
  const router = useContext(RouterContext);
  if (!router) throw new Error('outside a router');
  return router;
}

export const useLocation = (): Location => useRouter().location;
export const useNavigate = (): NavigateFunction => useRouter().navigate;
export const useParams = <T extends Record<string, string> = Record<string, string>>(): Readonly<Partial<T>> =>
  useContext(ParamsContext) as Partial<T>;

export function useSearchParams(): [URLSearchParams, (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => void] {
  const { location, navigate } = useRouter();
  const params = useMemo(() => new URLSearchParams(location.search), [location.search]);
  const set = useCallback(
    (next: Record<string, string> | URLSearchParams, options?: NavigateOptions) => {
      const search = new URLSearchParams(next).toString();
      navigate(`${location.pathname}${search ? `?${search}` : ''}`, options);
    },
    [location.pathname, navigate],
  );
  return [params, set];
}

export interface RouteProps {
  path?: string;
  element?: ReactNode;
  children?: ReactNode;
}

/** Only read by Routes (as React Router's Route is). */
export function Route(_props: RouteProps): ReactElement | null {
  return null;
}

export function Outlet() {
  return useContext(OutletContext);
}

/** A leaf route with the layout routes around it, its score, and its place among the routes. */
interface Branch {
  path: string;
  elements: ReactNode[];
  score: number;
  order: number;
  pattern: RegExp;
  names: string[];
}

function scoreOf(path: string): number {
  const segments = path.split('/');
  const splat = segments.includes('*');
  return segments
    .filter((segment) => segment !== '*')
    .reduce((score, segment) => score + (/^:[\w-]+$/.test(segment) ? 3 : segment === '' ? 1 : 10), segments.length + (splat ? -2 : 0));
}

function compile(path: string): Pick<Branch, 'pattern' | 'names'> {
  const names: string[] = [];
  let source =
    '^' +
    path
      .replace(/\/*\*?$/, '')
      .replace(/^\/*/, '/')
      .replace(/[\\.*+^${}|()[\]]/g, '\\$&')
      .replace(/\/:([\w-]+)/g, (_match, name: string) => {
        names.push(name);
        return '/([^\\/]+)';
      });
  if (path.endsWith('*')) {
    names.push('*');
    source += path === '*' || path === '/*' ? '(.*)$' : '(?:\\/(.+)|\\/*)$';
  } else {
    source += '\\/*$';
  }
  return { pattern: new RegExp(source, 'i'), names };
}

function branchesOf(children: ReactNode, layouts: ReactNode[] = [], into: Branch[] = []): Branch[] {
  Children.forEach(children, (child) => {
    if (!isValidElement<RouteProps>(child)) return;
    const { path, element = <Outlet />, children: nested } = child.props;
    if (path === undefined) {
      branchesOf(nested, [...layouts, element], into);
      return;
    }
    const full = `/${path}`.replace(/\/\/+/g, '/');
    into.push({ path: full, elements: [...layouts, element], score: scoreOf(full), order: into.length, ...compile(full) });
  });
  return into;
}

/** Each segment decoded, as React Router reads a path ('/' inside a segment stays %2F until the parameter). */
function decodePath(pathname: string): string {
  try {
    return pathname
      .split('/')
      .map((segment) => decodeURIComponent(segment).replace(/\//g, '%2F'))
      .join('/');
  } catch {
    return pathname;
  }
}

export function Routes({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  const branches = useMemo(() => branchesOf(children).sort((a, b) => b.score - a.score || a.order - b.order), [children]);
  const decoded = decodePath(pathname);
  for (const branch of branches) {
    const match = decoded.match(branch.pattern);
    if (!match) continue;
    const params = Object.fromEntries(branch.names.map((name, index) => [name, (match[index + 1] ?? '').replace(/%2F/g, '/')]));
    // Each level its own provider, so the tree keeps one shape from route to route (as React
    // Router's): a screen stays mounted when only its route's parameters change.
    const tree = branch.elements.reduceRight<ReactNode>(
      (outlet, element) => <OutletContext.Provider value={outlet}>{element}</OutletContext.Provider>,
      null,
    );
    return <ParamsContext.Provider value={params}>{tree}</ParamsContext.Provider>;
  }
  return null;
}

export function Navigate({ to, replace, state }: { to: string } & NavigateOptions) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace, state }), [navigate, to, replace, state]);
  return null;
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  to: string;
  replace?: boolean;
  state?: unknown;
}

export function Link({ to, replace, state, onClick, target, children, ...props }: LinkProps) {
  const { location, navigate } = useRouter();
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || (target && target !== '_self')) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    // A link to where you are replaces the entry rather than adding a second copy (React Router).
    const here = location.pathname + location.search + location.hash;
    const there = splitPath(to);
    navigate(to, { replace: replace ?? here === there.pathname + there.search + there.hash, state });
  };
  return (
    <a {...props} href={to} target={target} onClick={click}>
      {children}
    </a>
  );
}

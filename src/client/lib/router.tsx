/**
 * The client's router: wouter (~2 KB gzip; matching, Switch/Route, Link, Redirect, history
 * listening, search params, the tests' memory location), under the names the app has used since
 * React Router (BrowserRouter, MemoryRouter, Link, Navigate, useNavigate, useParams, useLocation,
 * useSearchParams).
 *
 * What is left here is what wouter does not do and the app can tell:
 * - history entries as React Router wrote them (`history.state` = { usr, key, idx }): ui/use-go-back
 *   reads idx (0 for the tab's first page of ours), and RouteErrorBoundary resets on a new key;
 * - parameters decoded as React Router decodes them (decodeURIComponent, once: wouter's decodeURI
 *   leaves %2F, %23, %3F… encoded, and decoding again would read a searched "%41" as "A");
 * - a Link to the current location replaces its entry rather than adding a second copy.
 * Routes match in their order in the Switch (App.tsx puts static paths first), case-insensitively,
 * with a trailing slash allowed (wouter's regexparam).
 */
import { useCallback, useMemo, useState, type AnchorHTMLAttributes, type ReactNode } from 'react';
import {
  Link as WouterLink,
  Router,
  useLocation as useWouterLocation,
  useParams as useWouterParams,
  useRouter,
  useSearch,
  type BaseLocationHook,
} from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { navigate as browserNavigate, useHistoryState, usePathname } from 'wouter/use-browser-location';

export { Redirect as Navigate, Route, Switch, useSearchParams } from 'wouter';

/** A history entry's state, in React Router's shape. */
interface Entry {
  /** The state given to navigate(). */
  usr?: unknown;
  /** A new one for every entry. */
  key?: string;
  /** The entry's place in the tab's history among ours, from 0. */
  idx?: number;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

export type NavigateFunction = (to: string | number, options?: NavigateOptions) => void;

export interface Location {
  pathname: string;
  search: string;
  state: unknown;
  /** A new one for every entry ('default' for the first page of the tab). */
  key: string;
}

/** Where a router's entries live: the browser's history, or a memory location (tests). */
interface Source {
  usePath: () => string;
  write: (to: string, options: { replace: boolean; state: Entry }) => void;
  entry: () => Entry | null;
  useEntry: () => Entry | null;
  go: (delta: number) => void;
}

type Hook = BaseLocationHook & { source: Source };

const newKey = () => Math.random().toString(36).slice(2, 10);

/** wouter's location hook over `source`: each navigation writes an entry numbered as React Router's. */
function hookOver(source: Source): Hook {
  const navigate = (to: string, { replace = false, state = null }: NavigateOptions = {}) =>
    source.write(to, { replace, state: { usr: state, key: newKey(), idx: (source.entry()?.idx ?? 0) + (replace ? 0 : 1) } });
  // wouter matches on decodeURI(path): with '%' escaped, that is the path as it is, and useParams
  // decodes each parameter itself.
  const hook = (): [string, typeof navigate] => [source.usePath().replace(/%/g, '%25'), navigate];
  return Object.assign(hook, { source });
}

const browserHook = hookOver({
  usePath: usePathname,
  write: browserNavigate,
  entry: () => window.history.state as Entry | null,
  useEntry: () => useHistoryState<Entry | null>(),
  go: (delta) => window.history.go(delta),
});

export function BrowserRouter({ children }: { children: ReactNode }) {
  return <Router hook={browserHook}>{children}</Router>;
}

/** For the tests: the app at `initialEntries`' last path, in memory (window.history untouched). */
export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: string[]; children: ReactNode }) {
  const [{ hook, searchHook }] = useState(() => {
    const memory = memoryLocation<Entry>({ path: initialEntries.at(-1) });
    const source: Source = {
      usePath: () => memory.hook()[0],
      write: memory.navigate,
      entry: () => memory.state,
      useEntry: () => memory.state,
      go: () => {
        throw new Error('MemoryRouter keeps no history to go through');
      },
    };
    return { hook: hookOver(source), searchHook: memory.searchHook };
  });
  return (
    <Router hook={hook} searchHook={searchHook}>
      {children}
    </Router>
  );
}

const useSource = (): Source => (useRouter().hook as Hook).source;

export function useLocation(): Location {
  const [pathname] = useWouterLocation();
  const search = useSearch();
  const entry = useSource().useEntry();
  return { pathname, search: search && `?${search}`, state: entry?.usr ?? null, key: entry?.key ?? 'default' };
}

export function useNavigate(): NavigateFunction {
  const [, navigate] = useWouterLocation();
  const { go } = useSource();
  return useCallback((to, options) => (typeof to === 'number' ? go(to) : navigate(to, options)), [go, navigate]);
}

const decode = (value: string) => {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
};

export function useParams<T extends Record<string, string> = Record<string, string>>(): Readonly<Partial<T>> {
  const params: Record<string, string | undefined> = useWouterParams();
  return useMemo(
    () => Object.fromEntries(Object.entries(params).map(([name, value]) => [name, value === undefined ? value : decode(value)])),
    [params],
  ) as Partial<T>;
}

export type LinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> & NavigateOptions & { to: string };

export function Link({ replace, ...props }: LinkProps) {
  const { pathname, search } = useLocation();
  // A link to where you are replaces the entry rather than adding a second copy (React Router).
  return <WouterLink {...props} replace={replace ?? props.to === pathname + search} />;
}

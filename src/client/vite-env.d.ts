/// <reference types="vite/client" />
import type { RouteLine } from '../shared/api/route';
import type { RouteGroup, RouteName } from '../shared/api/routes';

declare global {
  /** Each route's method, path and group by name, from its definition in shared/api (vite.config.ts). */
  const __ROUTE_LINES__: Readonly<Record<RouteName, RouteLine<RouteGroup>>>;
}

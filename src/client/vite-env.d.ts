/// <reference types="vite/client" />
import type { RouteLine } from '../shared/api/route';
import type { RouteName } from '../shared/api/routes';

declare global {
  /** Each route's method and path by name, from its definition in shared/api (vite.config.ts). */
  const __ROUTE_LINES__: Readonly<Record<RouteName, RouteLine>>;
}

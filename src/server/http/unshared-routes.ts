import { API } from '../../shared/api/paths.js';

/**
 * The /api routes deliberately outside the shared contract (shared/api/routes.ts), each with
 * why. Every other /api route is registered from its shared definition (tests/api/route-contract.test.ts).
 */
export const UNSHARED_ROUTES = {
  /** `npm run admin` while the server owns the embedded database: loopback and token only, never a browser. */
  adminCommand: { method: 'POST', path: '/api/admin/command' },
  /** `npm run backup` on the same machine: loopback and token only, never a browser. */
  backup: { method: 'POST', path: '/api/admin/backup' },
  /** The OpenAPI document: it describes the contract, and is hidden from itself. */
  openapi: { method: 'GET', path: API.openapi },
} as const;

import type { FastifyRequest } from 'fastify';
import type { UserRow } from './auth.queries.js';

/**
 * The signed-in account's whole row (e-mail, password hash, ...), which the session lookup read
 * anyway. Only the modules that read and write accounts ask for it (auth, accounts, the user's
 * own profile); every other module gets the Viewer.
 */
const accounts = new WeakMap<FastifyRequest, UserRow>();

export function rememberAccount(request: FastifyRequest, account: UserRow): void {
  accounts.set(request, account);
}

/** The account of a signed-in route's caller (its access declaration made sure there is one). */
export function accountOf(request: FastifyRequest): UserRow {
  const account = accounts.get(request);
  if (!account) throw new Error(`${request.routeOptions.url}: no signed-in account (is the route declared signed-in?)`);
  return account;
}

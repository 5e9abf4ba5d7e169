import type { FastifyRequest } from 'fastify';
import type { UserRow } from './auth.queries.js';

/**
 * The signed-in account's whole row (e-mail, password hash, ...), which the session lookup read
 * anyway. Only the modules that read and write accounts ask for it (auth, accounts, the user's
 * own profile); every other module gets the Viewer.
 */
const accounts = new WeakMap<FastifyRequest, { account: UserRow; signedInAt: Date }>();

/** An account without a password (single sign-on) proves it is its owner by signing in this recently (issue 29). */
export const RECENT_SIGN_IN_MS = 10 * 60 * 1000;

export function rememberAccount(request: FastifyRequest, account: UserRow, signedInAt: Date): void {
  accounts.set(request, { account, signedInAt });
}

/**
 * Where others type their password again (adding one, deleting the account): an account without
 * one must have signed in, through its university account, within RECENT_SIGN_IN_MS.
 */
export function signedInRecently(request: FastifyRequest, now = Date.now()): boolean {
  const remembered = accounts.get(request);
  return remembered !== undefined && now - remembered.signedInAt.getTime() < RECENT_SIGN_IN_MS;
}

/** The account of a signed-in route's caller (its access declaration made sure there is one). */
export function accountOf(request: FastifyRequest): UserRow {
  const remembered = accounts.get(request);
  if (!remembered) throw new Error(`${request.routeOptions.url}: no signed-in account (is the route declared signed-in?)`);
  return remembered.account;
}

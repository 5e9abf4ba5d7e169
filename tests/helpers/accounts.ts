import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Me } from '../../src/shared/api/auth.js';
import { API } from '../../src/shared/api/paths.js';

let counter = 0;

/** A unique, valid sign-up body. */
export function newAccount(prefix = 'user') {
  counter += 1;
  const tag = `${process.pid % 1000}${counter}`;
  return { username: `${prefix}${tag}`.slice(0, 20), email: `${prefix}${tag}@example.com`, password: 'correct horse 1' };
}

/** The session cookie a response set, ready for the next request's `cookie` header. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const cookie = response.cookies.find((c) => c.name === 'session');
  if (!cookie) throw new Error(`no session cookie (status ${response.statusCode}: ${response.body})`);
  return `session=${cookie.value}`;
}

/** Registers a new account and returns it with its session cookie. */
export async function signUp(app: FastifyInstance, body = newAccount()) {
  const response = await app.inject({ method: 'POST', url: API.register, payload: body });
  if (response.statusCode !== 201) throw new Error(`sign-up failed: ${response.statusCode} ${response.body}`);
  return { ...body, uid: response.json().user.uid as string, cookie: sessionCookie(response) };
}

/** Deletes the account (Delete Account, with its password): its name is then held for its address. */
export async function deleteOwnAccount(app: FastifyInstance, account: { cookie: string; password: string }): Promise<void> {
  const response = await app.inject({
    method: 'DELETE',
    url: API.me,
    payload: { password: account.password },
    headers: { cookie: account.cookie },
  });
  if (response.statusCode !== 204) throw new Error(`delete failed: ${response.statusCode} ${response.body}`);
}

/**
 * A new member's Me as the API answers it: no bio or icon, a password of its own, an address
 * not verified (and, without mail, nothing held back). `changes` set what differs.
 */
export function expectedMe(account: { uid: unknown; username: string; email: string }, changes: Partial<Me> = {}) {
  return {
    uid: account.uid,
    username: account.username,
    email: account.email,
    bio: '',
    icon: null,
    role: 'member',
    emailVerified: false,
    pendingEmail: null,
    mustVerify: false,
    hasPassword: true,
    ...changes,
  };
}

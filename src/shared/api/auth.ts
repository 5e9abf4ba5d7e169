import { z } from 'zod';
import { ROLES } from '../moderation.js';
import { ErrorBody, text } from './common.js';
import { defineRoute, PUBLIC, signedIn } from './route.js';

/** The signed-in user as the client sees themself. */
export const Me = z
  .object({
    uid: z.string(),
    username: z.string(),
    email: z.string(),
    bio: z.string(),
    /** URL of the profile picture, or null when the user has none. */
    icon: z.string().nullable(),
    /** member, moderator or admin (issue 17): staff see Moderation in Settings and /moderation. */
    role: z.enum(ROLES),
    /** Whether `email` has been proved by a mailed link or code (issue 29). */
    emailVerified: z.boolean(),
    /** A new address asked for and not yet proved; `email` stays the account's until it is. */
    pendingEmail: z.string().nullable(),
    /** The account cannot post, follow, save, report or invite until it proves `pendingEmail ?? email`. */
    mustVerify: z.boolean(),
    /**
     * False for an account made through single sign-on until it adds a password: Change Password
     * then adds one, and Delete Account asks for a fresh university sign-in instead (issue 29).
     */
    hasPassword: z.boolean(),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

export const MeResponse = z.object({ user: Me });
export type MeResponse = z.infer<typeof MeResponse>;

export const RegisterBody = z.strictObject({
  username: text(),
  email: text(),
  password: text(),
  /** REGISTRATION=invite (issue 17); optional, so a client from before it still signs up elsewhere. */
  inviteCode: text().optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.strictObject({ identifier: text(), password: text() });
export type LoginBody = z.infer<typeof LoginBody>;

export const authApi = {
  register: defineRoute({
    method: 'POST',
    path: '/api/auth/register',
    access: PUBLIC,
    tags: ['accounts'],
    summary: 'Create an account and sign in',
    body: RegisterBody,
    responses: { 201: MeResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  login: defineRoute({
    method: 'POST',
    path: '/api/auth/login',
    access: PUBLIC,
    tags: ['accounts'],
    summary: 'Sign in with a username or an e-mail address',
    body: LoginBody,
    responses: { 200: MeResponse, 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody },
  }),
  /** Public: signing out a browser whose session already ended still clears its cookie. */
  logout: defineRoute({
    method: 'POST',
    path: '/api/auth/logout',
    access: PUBLIC,
    tags: ['accounts'],
    summary: 'Sign out this browser',
    responses: { 204: z.null() },
  }),
  logoutAll: defineRoute({
    method: 'POST',
    path: '/api/auth/logout-all',
    access: signedIn(),
    tags: ['accounts'],
    summary: 'Sign out everywhere: end every session of the signed-in user',
    responses: { 204: z.null(), 401: ErrorBody },
  }),
  me: defineRoute({
    method: 'GET',
    path: '/api/me',
    access: signedIn(),
    tags: ['accounts'],
    summary: 'The signed-in user',
    responses: { 200: MeResponse, 401: ErrorBody },
  }),
} as const;

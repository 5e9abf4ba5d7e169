import { z } from 'zod';
import { ErrorBody, text } from './common.js';
import { defineRoute, signedIn } from './route.js';

/** Change Password (not in the spec; issue 16). The server re-checks every rule the form does. */
export const ChangePasswordBody = z.strictObject({ currentPassword: text(), newPassword: text(), confirmPassword: text() });
export type ChangePasswordBody = z.infer<typeof ChangePasswordBody>;

/** One signed-in session of the user, as the Sessions page lists it. */
export const SessionInfo = z
  .object({
    /** Public id: what DELETE API.session(id) takes. */
    id: z.string(),
    /** "Chrome 131", or null when the User-Agent named no browser we know. */
    browser: z.string().nullable(),
    /** "macOS 14.5", "Android 15", or null. */
    system: z.string().nullable(),
    signedInAt: z.iso.datetime(),
    lastActiveAt: z.iso.datetime(),
    /** The session this request was made in ("This device"). */
    current: z.boolean(),
  })
  .meta({ id: 'Session' });
export type SessionInfo = z.infer<typeof SessionInfo>;

export const SessionsResponse = z.object({ sessions: z.array(SessionInfo) });
export type SessionsResponse = z.infer<typeof SessionsResponse>;

export const SessionParams = z.object({ id: z.string().min(1).max(64) });

/** Not in the spec (issue 16): Change Password and the Sessions list of Settings → Security. */
export const sessionsApi = {
  changePassword: defineRoute({
    method: 'POST',
    path: '/api/me/password',
    access: signedIn(),
    tags: ['accounts'],
    summary: 'Change your password; every other session ends',
    body: ChangePasswordBody,
    responses: { 204: z.null(), 400: ErrorBody, 401: ErrorBody, 429: ErrorBody },
  }),
  sessions: defineRoute({
    method: 'GET',
    path: '/api/me/sessions',
    access: signedIn(),
    tags: ['accounts'],
    summary: 'Where you are signed in: every live session, this one marked current',
    responses: { 200: SessionsResponse, 401: ErrorBody },
  }),
  endSession: defineRoute({
    method: 'DELETE',
    path: '/api/me/sessions/:id',
    access: signedIn(),
    tags: ['accounts'],
    summary: 'Sign out one session (this one too, if named)',
    params: SessionParams,
    responses: { 204: z.null(), 400: ErrorBody, 401: ErrorBody, 404: ErrorBody },
  }),
} as const;

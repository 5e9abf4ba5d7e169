import { z } from 'zod';
import { text } from './common.js';

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

import { z } from 'zod';
import { MeResponse } from './auth.js';
import { ErrorBody, text } from './common.js';
import { defineRoute, PUBLIC } from './route.js';

/** A reset link's page, before it asks for the new password: is the link still good, and whose? */
export const ResetCheckBody = z.strictObject({ token: text() });
export type ResetCheckBody = z.infer<typeof ResetCheckBody>;

export const ResetCheckResponse = z.object({ username: z.string() });
export type ResetCheckResponse = z.infer<typeof ResetCheckResponse>;

/** The new password, typed twice; the server re-checks every rule the form does. */
export const ResetBody = z.strictObject({ token: text(), newPassword: text(), confirmPassword: text() });
export type ResetBody = z.infer<typeof ResetBody>;

/** "Forgot password?": a username or an e-mail address, as on the sign-in form. */
export const ForgotPasswordBody = z.strictObject({ identifier: text() });
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBody>;

/**
 * Not in the spec (issue 16): a reset link's page checks and uses its link; "Forgot password?"
 * mails one. The token travels in JSON bodies only, never in an API URL, so no log line holds it.
 */
export const passwordResetApi = {
  resetCheck: defineRoute({
    method: 'POST',
    path: '/api/auth/reset/check',
    access: PUBLIC,
    tags: ['accounts'],
    summary: 'Whose a password reset link is, while it is still good',
    body: ResetCheckBody,
    responses: { 200: ResetCheckResponse, 400: ErrorBody, 429: ErrorBody },
  }),
  reset: defineRoute({
    method: 'POST',
    path: '/api/auth/reset',
    access: PUBLIC,
    tags: ['accounts'],
    summary: 'Set a new password with a reset link: every session of the account ends, and this browser is signed in',
    body: ResetBody,
    responses: { 200: MeResponse, 400: ErrorBody, 429: ErrorBody },
  }),
  forgotPassword: defineRoute({
    method: 'POST',
    path: '/api/auth/forgot',
    access: PUBLIC,
    tags: ['accounts'],
    summary: 'Mail a password reset link to the account named (the same answer whether or not there is one)',
    body: ForgotPasswordBody,
    responses: { 204: z.null(), 400: ErrorBody, 404: ErrorBody, 429: ErrorBody },
  }),
} as const;

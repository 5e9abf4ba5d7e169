import { z } from 'zod';
import { MeResponse } from './auth.js';
import { ErrorBody, text } from './common.js';
import { PersonParams } from './moderation.js';
import { defineRoute, onlyFor, PUBLIC, signedIn } from './route.js';

/** A mailed verification link's token (from /verify/{token}), sent in the body so no log line holds it. */
export const VerifyLinkBody = z.strictObject({ token: text() });
export type VerifyLinkBody = z.infer<typeof VerifyLinkBody>;

/** The address a link or code proved. */
export const VerifiedResponse = z.object({ email: z.string() });
export type VerifiedResponse = z.infer<typeof VerifiedResponse>;

/** The 6-digit code from the same mail, typed on the device that is signed in. */
export const VerifyCodeBody = z.strictObject({ code: text() });
export type VerifyCodeBody = z.infer<typeof VerifyCodeBody>;

/** A new address for the account (Settings → E-mail); the current password proves it is the owner asking. */
export const ChangeEmailBody = z.strictObject({ email: text(), currentPassword: text() });
export type ChangeEmailBody = z.infer<typeof ChangeEmailBody>;

const tags = ['accounts'];

/**
 * Not in the spec (issue 29): verified addresses. With mail on, a new account (or a new address)
 * is proved by a mailed link or its 6-digit code; until then the account cannot post, follow,
 * save, report or invite (shared/api/route.ts `verified`).
 */
export const emailVerificationApi = {
  verifyLink: defineRoute({
    method: 'POST',
    path: '/api/auth/verify',
    access: PUBLIC,
    tags,
    summary: "Prove an address with a mailed link's token (signed in or not: the mail may be opened anywhere)",
    body: VerifyLinkBody,
    responses: { 200: VerifiedResponse, 400: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  verifyCode: defineRoute({
    method: 'POST',
    path: '/api/me/email/code',
    access: signedIn(),
    tags,
    summary: "Prove the address being verified with the mail's 6-digit code",
    body: VerifyCodeBody,
    responses: { 200: MeResponse, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  resendVerification: defineRoute({
    method: 'POST',
    path: '/api/me/email/resend',
    access: signedIn(),
    tags,
    summary: 'Mail a new link and code for the address being verified (the old ones stop working)',
    responses: { 204: z.null(), 401: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  changeEmail: defineRoute({
    method: 'PUT',
    path: '/api/me/email',
    access: signedIn(),
    tags,
    summary:
      'Change your address. With mail on the new one is mailed a link and kept pending (the old one stays until it is ' +
      'proved); the current address cancels a pending change',
    body: ChangeEmailBody,
    responses: { 200: MeResponse, 400: ErrorBody, 401: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  moderationVerifyEmail: defineRoute({
    method: 'POST',
    path: '/api/moderation/people/:username/verify-email',
    access: onlyFor('admin'),
    tags: ['moderation'],
    summary: "Mark a user's current address as verified (admins)",
    params: PersonParams,
    responses: { 204: z.null(), 404: ErrorBody },
  }),
} as const;

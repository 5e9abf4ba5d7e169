import { z } from 'zod';
import { MeResponse } from './auth.js';
import { ErrorBody, text } from './common.js';
import { defineRoute, PUBLIC } from './route.js';

/** A mailed claim link's token (from /claim/{token}), sent in the body so no log line holds it. */
export const ClaimBody = z.strictObject({ token: text() });
export type ClaimBody = z.infer<typeof ClaimBody>;

export const ClaimCheckResponse = z.object({ username: z.string(), email: z.string() });
export type ClaimCheckResponse = z.infer<typeof ClaimCheckResponse>;

const tags = ['accounts'];

/**
 * Not in the spec (issue 29): a deleted account's held name back early, to whoever proves its
 * address. A sign-up asking for a held name is answered as every such sign-up is ('Username has
 * already been registered.'); when its address is the one the name was held for, that address is
 * mailed a link that makes the account it asked for.
 */
export const usernameClaimApi = {
  claimCheck: defineRoute({
    method: 'POST',
    path: '/api/auth/claim/check',
    access: PUBLIC,
    tags,
    summary: 'The name and address a mailed claim link makes an account with, while it is still good',
    body: ClaimBody,
    responses: { 200: ClaimCheckResponse, 400: ErrorBody, 429: ErrorBody },
  }),
  claimUsername: defineRoute({
    method: 'POST',
    path: '/api/auth/claim',
    access: PUBLIC,
    tags,
    summary: 'Make the account a mailed claim link is for (its held name, its proved address), signed in',
    body: ClaimBody,
    responses: { 201: MeResponse, 400: ErrorBody, 403: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
} as const;

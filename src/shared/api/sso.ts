import { z } from 'zod';
import { MeResponse } from './auth.js';
import { ErrorBody, text } from './common.js';
import { defineRoute, PUBLIC, signedIn } from './route.js';

/**
 * The settings pages that ask an account without a password to have signed in within 10 minutes
 * (issue 29): signing in again from one of them comes back to it.
 */
export const SSO_AGAIN_PAGES = ['/settings/password', '/settings/email', '/settings/delete'] as const;

/**
 * `link=1`: a signed-in account connects the provider (Settings); `again=<page>`: a signed-in
 * account signs in again, then comes back to the page; else a sign-in.
 */
export const SsoStartQuery = z.strictObject({ link: z.enum(['1']).optional(), again: z.enum(SSO_AGAIN_PAGES).optional() });

/** What the provider sends back: handled as a whole URL (openid-client reads it), any parameters. */
export const SsoCallbackQuery = z.record(z.string(), z.string().max(4096));

/** A first single sign-on waiting for its username: the provider's address, and its username if it fits. */
export const SsoSignupResponse = z.object({ email: z.string(), suggestedUsername: z.string() });
export type SsoSignupResponse = z.infer<typeof SsoSignupResponse>;

export const SsoSignupBody = z.strictObject({ username: text() });
export type SsoSignupBody = z.infer<typeof SsoSignupBody>;

/**
 * Settings → Security: whether the account is connected, and whether it could sign in without;
 * when the provider last signed it in, and whether its university account may have ended (the
 * provider refused a sign-in meant for it, or has signed it in for none of SSO_STALE_DAYS).
 */
export const SsoStateResponse = z.object({
  linked: z.boolean(),
  hasPassword: z.boolean(),
  lastSignInAt: z.iso.datetime().nullable(),
  refusedAt: z.iso.datetime().nullable(),
  stale: z.boolean(),
});
export type SsoStateResponse = z.infer<typeof SsoStateResponse>;

const tags = ['accounts'];

/**
 * Not in the spec (issue 29): single sign-on with the university's OpenID provider. The routes
 * that send the browser to the provider and take it back answer with redirects: to the provider,
 * then home (signed in), to the username page (a first sign-in), or to a page that says what
 * went wrong. Without OIDC_ISSUER each answers 404.
 */
export const ssoApi = {
  ssoStart: defineRoute({
    method: 'GET',
    path: '/api/auth/sso/start',
    access: PUBLIC,
    tags,
    summary: "Go to the university's sign-in (302), or with link=1 connect it to the signed-in account",
    query: SsoStartQuery,
    responses: { 302: z.null(), 400: ErrorBody, 404: ErrorBody },
  }),
  ssoCallback: defineRoute({
    method: 'GET',
    path: '/api/auth/sso/callback',
    access: PUBLIC,
    tags,
    summary: "The provider's redirect back: signs in, asks for a username, or links; errors go to a page (302)",
    query: SsoCallbackQuery,
    responses: { 302: z.null(), 400: ErrorBody, 404: ErrorBody },
  }),
  ssoSignup: defineRoute({
    method: 'GET',
    path: '/api/auth/sso/signup',
    access: PUBLIC,
    tags,
    summary: "A first single sign-on waiting for its username (this browser's): the provider's address and suggestion",
    responses: { 200: SsoSignupResponse, 400: ErrorBody, 404: ErrorBody },
  }),
  ssoCompleteSignup: defineRoute({
    method: 'POST',
    path: '/api/auth/sso/signup',
    access: PUBLIC,
    tags,
    summary: 'Choose the username of a first single sign-on: the account is made, linked and signed in',
    body: SsoSignupBody,
    responses: { 201: MeResponse, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 429: ErrorBody },
  }),
  ssoState: defineRoute({
    method: 'GET',
    path: '/api/me/sso',
    access: signedIn(),
    tags,
    summary: 'Whether your account is connected to the university sign-in',
    responses: { 200: SsoStateResponse, 401: ErrorBody, 404: ErrorBody },
  }),
  ssoUnlink: defineRoute({
    method: 'DELETE',
    path: '/api/me/sso',
    access: signedIn(),
    tags,
    summary: 'Disconnect the university sign-in (only with a password of your own)',
    responses: { 204: z.null(), 401: ErrorBody, 404: ErrorBody, 409: ErrorBody },
  }),
} as const;

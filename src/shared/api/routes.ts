import { activityApi } from './activity.js';
import { accountApi } from './delete-account.js';
import { authApi } from './auth.js';
import { boardsApi } from './boards.js';
import { emailVerificationApi } from './email-verification.js';
import { invitesApi } from './invites.js';
import { moderationApi } from './moderation.js';
import { passwordResetApi } from './password-reset.js';
import { postsApi } from './posts.js';
import type { RouteDefinition } from './route.js';
import { searchApi } from './search.js';
import { sessionsApi } from './sessions.js';
import { ssoApi } from './sso.js';
import { usernameClaimApi } from './username-claim.js';
import { usersApi } from './users.js';

/**
 * The routes by the module that defines them, each a group of the contract: the client loads one
 * group's schemas at a time (client/api/answer-schemas.ts), so a page parses its answers without
 * making every schema of the API first.
 */
export const ROUTE_GROUPS = {
  auth: authApi,
  sessions: sessionsApi,
  passwordReset: passwordResetApi,
  emailVerification: emailVerificationApi,
  usernameClaim: usernameClaimApi,
  sso: ssoApi,
  account: accountApi,
  invites: invitesApi,
  moderation: moderationApi,
  posts: postsApi,
  users: usersApi,
  search: searchApi,
  boards: boardsApi,
  activity: activityApi,
} as const;

export type RouteGroup = keyof typeof ROUTE_GROUPS;

/**
 * Every route of the API contract by name, one definition each (defined next to its feature's
 * schemas). The server registers exactly these (a test checks both ways); the client calls them.
 */
export const ROUTES = {
  ...authApi,
  ...sessionsApi,
  ...passwordResetApi,
  ...emailVerificationApi,
  ...usernameClaimApi,
  ...ssoApi,
  ...accountApi,
  ...invitesApi,
  ...moderationApi,
  ...postsApi,
  ...usersApi,
  ...searchApi,
  ...boardsApi,
  ...activityApi,
} as const;

export type RouteName = keyof typeof ROUTES;

export const ALL_ROUTES: readonly RouteDefinition[] = Object.values(ROUTES);

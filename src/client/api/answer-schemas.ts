import type { RouteDefinition } from '../../shared/api/route';
import type { RouteGroup } from '../../shared/api/routes';

type Definitions = Readonly<Record<string, RouteDefinition>>;

/**
 * Each group's schemas (shared/api/routes.ts ROUTE_GROUPS) as a chunk of its own, loaded beside
 * the first request of one of its routes (http.ts). The post page then makes the schemas of auth
 * and posts alone: making every route's took ~140 ms at 4× CPU slowdown, one long task of the
 * phone's first view (issue 28).
 */
export const ANSWER_SCHEMAS: Record<RouteGroup, () => Promise<Definitions>> = {
  auth: () => import('../../shared/api/auth').then((m) => m.authApi),
  sessions: () => import('../../shared/api/sessions').then((m) => m.sessionsApi),
  passwordReset: () => import('../../shared/api/password-reset').then((m) => m.passwordResetApi),
  emailVerification: () => import('../../shared/api/email-verification').then((m) => m.emailVerificationApi),
  usernameClaim: () => import('../../shared/api/username-claim').then((m) => m.usernameClaimApi),
  sso: () => import('../../shared/api/sso').then((m) => m.ssoApi),
  account: () => import('../../shared/api/delete-account').then((m) => m.accountApi),
  invites: () => import('../../shared/api/invites').then((m) => m.invitesApi),
  moderation: () => import('../../shared/api/moderation').then((m) => m.moderationApi),
  posts: () => import('../../shared/api/posts').then((m) => m.postsApi),
  users: () => import('../../shared/api/users').then((m) => m.usersApi),
  search: () => import('../../shared/api/search').then((m) => m.searchApi),
  boards: () => import('../../shared/api/boards').then((m) => m.boardsApi),
  activity: () => import('../../shared/api/activity').then((m) => m.activityApi),
};

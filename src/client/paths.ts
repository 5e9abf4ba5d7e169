import type { NotFoundMessage } from '../shared/not-found-messages';

/** Every route of the app (spec section 2), in one place. */
export const paths = {
  home: '/',
  login: '/login',
  search: (query: string) => `/search/${encodeURIComponent(query)}`,
  profile: (username: string) => `/@${username}`,
  followers: (username: string) => `/@${username}/followers`,
  following: (username: string) => `/@${username}/following`,
  /** Not in the spec (issue 18): a profile's Boards tab, and one board's page. */
  boards: (username: string) => `/@${username}/boards`,
  board: (username: string, slug: string) => `/@${username}/boards/${encodeURIComponent(slug)}`,
  post: (id: string) => `/post/${id}`,
  upload: '/upload',
  settings: '/settings',
  accountSettings: '/settings/account',
  /** Not in the spec: the Security section of Settings (issue 16). */
  changePassword: '/settings/password',
  sessions: '/settings/sessions',
  downloadData: '/settings/data',
  deleteAccount: '/settings/delete',
  /** Not in the spec (issue 17): whom you blocked, each with Unblock. */
  blockedAccounts: '/settings/blocked',
  /** A password reset link (npm run admin -- reset-link, or mailed by "Forgot password?"). */
  reset: (token: string) => `/reset/${token}`,
  forgotPassword: '/forgot-password',
  /** Not in the spec (issue 29): a mailed address verification link, and Settings → E-mail address. */
  verify: (token: string) => `/verify/${token}`,
  /** Not in the spec (issue 29): a mailed link that gives a held username back to its address's owner. */
  claim: (token: string) => `/claim/${token}`,
  emailSettings: '/settings/email',
  /** Not in the spec (issue 29): a first single sign-on's username, and Settings → {OIDC_NAME}. */
  ssoWelcome: '/sso/welcome',
  ssoSettings: '/settings/sso',
  /** Not in the spec (issue 30): your notifications, and Settings → Notifications. */
  activity: '/activity',
  notificationSettings: '/settings/notifications',
  /** Issue 17: for moderators and admins (the not-found page to everyone else). */
  moderation: '/moderation',
  moderationLog: '/moderation/log',
  moderationPeople: '/moderation/people',
  /** Not in the spec (issue 17): invite codes for REGISTRATION=invite (admins). */
  invites: '/moderation/invites',
  /** Only the texts the page will show (shared/not-found-messages.ts). */
  notFound: (error?: NotFoundMessage) => (error ? `/404/${encodeURIComponent(error)}` : '/404'),
} as const;

/** API paths, shared by the server's routes and the client's fetchers. */
export const API = {
  register: '/api/auth/register',
  login: '/api/auth/login',
  logout: '/api/auth/logout',
  logoutAll: '/api/auth/logout-all',
  me: '/api/me',
  /** Not in the spec (issue 16): the signed-in user manages their account. DELETE API.me deletes it. */
  password: '/api/me/password',
  sessions: '/api/me/sessions',
  session: (id: string) => `/api/me/sessions/${encodeURIComponent(id)}`,
  exportData: '/api/me/export',
  /** A reset link's page: check the link, then set the new password with it. */
  resetCheck: '/api/auth/reset/check',
  reset: '/api/auth/reset',
  /** "Forgot password?": mails a reset link when SMTP_URL is set. */
  forgotPassword: '/api/auth/forgot',
  openapi: '/api/openapi.json',
  /** Invite codes for REGISTRATION=invite (issue 17): admins only, everyone else 404. */
  invites: '/api/moderation/invites',
  invite: (id: string) => `/api/moderation/invites/${encodeURIComponent(id)}`,
  /** Reports and moderation (issue 17): /api/moderation/* is for moderators and admins, 404 to everyone else. */
  reports: '/api/reports',
  moderationQueue: '/api/moderation/queue',
  moderationLog: '/api/moderation/log',
  moderationSuspended: '/api/moderation/suspended',
  moderationDismiss: '/api/moderation/dismiss',
  moderationRemovePost: '/api/moderation/remove-post',
  moderationSuspend: '/api/moderation/suspend',
  /** Lifts a suspension early: admins only. */
  moderationUnsuspend: '/api/moderation/unsuspend',
  moderationPerson: (username: string) => `/api/moderation/people/${encodeURIComponent(username)}`,
  /** PUT: sets the role; admins only. */
  moderationRole: (username: string) => `/api/moderation/people/${encodeURIComponent(username)}/role`,
  posts: '/api/posts',
  post: (id: string) => `/api/posts/${encodeURIComponent(id)}`,
  related: (id: string) => `/api/posts/${encodeURIComponent(id)}/related`,
  user: (username: string) => `/api/users/${encodeURIComponent(username)}`,
  userPosts: (username: string) => `/api/users/${encodeURIComponent(username)}/posts`,
  followers: (username: string) => `/api/users/${encodeURIComponent(username)}/followers`,
  following: (username: string) => `/api/users/${encodeURIComponent(username)}/following`,
  follow: (username: string) => `/api/users/${encodeURIComponent(username)}/follow`,
  /** PUT blocks, DELETE unblocks (issue 17); GET API.blocks lists whom you blocked. */
  block: (username: string) => `/api/users/${encodeURIComponent(username)}/block`,
  blocks: '/api/me/blocks',
  /**
   * Boards (issue 18). Read by owner and slug (the page's address); written by id. GET
   * API.saveTargets is the Save picker: your own and joined boards, most recently used first.
   */
  boards: '/api/boards',
  board: (id: string) => `/api/boards/${encodeURIComponent(id)}`,
  /** PUT saves the post to the board, DELETE removes it. */
  boardPost: (id: string, postId: string) => `/api/boards/${encodeURIComponent(id)}/posts/${encodeURIComponent(postId)}`,
  /** PUT (owner) invites; DELETE removes a member (owner) or leaves / declines (the member). */
  boardMember: (id: string, username: string) => `/api/boards/${encodeURIComponent(id)}/members/${encodeURIComponent(username)}`,
  /** POST: an invitee joins. */
  boardJoin: (id: string) => `/api/boards/${encodeURIComponent(id)}/join`,
  saveTargets: (postId?: string) => (postId ? `/api/me/boards?post=${encodeURIComponent(postId)}` : '/api/me/boards'),
  userBoards: (username: string) => `/api/users/${encodeURIComponent(username)}/boards`,
  userBoard: (username: string, slug: string) => `/api/users/${encodeURIComponent(username)}/boards/${encodeURIComponent(slug)}`,
  userBoardPosts: (username: string, slug: string) => `/api/users/${encodeURIComponent(username)}/boards/${encodeURIComponent(slug)}/posts`,
  searchUsers: (query: string) => `/api/search/users?q=${encodeURIComponent(query)}`,
  searchPosts: (query: string) => `/api/search/posts?q=${encodeURIComponent(query)}`,
} as const;

import { pathOf } from './route.js';
import { ROUTES } from './routes.js';

/**
 * URLs of the API, derived from the route definitions (shared/api/routes.ts): the one place a
 * path is written is its definition. Kept for the callers that want a URL by name; `pathOf`
 * builds any definition's URL.
 */
export const API = {
  register: ROUTES.register.path,
  login: ROUTES.login.path,
  logout: ROUTES.logout.path,
  logoutAll: ROUTES.logoutAll.path,
  /** GET the signed-in user; PATCH updates the profile, DELETE deletes the account (issue 16). */
  me: ROUTES.me.path,
  /** Not in the spec (issue 16): the signed-in user manages their account. */
  password: ROUTES.changePassword.path,
  sessions: ROUTES.sessions.path,
  session: (id: string) => pathOf(ROUTES.endSession, { id }),
  exportData: ROUTES.exportData.path,
  /** A reset link's page: check the link, then set the new password with it. */
  resetCheck: ROUTES.resetCheck.path,
  reset: ROUTES.reset.path,
  /** "Forgot password?": mails a reset link when SMTP_URL is set. */
  forgotPassword: ROUTES.forgotPassword.path,
  /** Verified addresses (issue 29): a mailed link's token, or its code; a new mail; a new address. */
  verifyLink: ROUTES.verifyLink.path,
  verifyCode: ROUTES.verifyCode.path,
  resendVerification: ROUTES.resendVerification.path,
  email: ROUTES.changeEmail.path,
  /** POST: an admin marks the user's address verified. */
  moderationVerifyEmail: (username: string) => pathOf(ROUTES.moderationVerifyEmail, { username }),
  /** Single sign-on (issue 29): where the sign-in screen's button and Settings' Connect send the browser. */
  ssoStart: ROUTES.ssoStart.path,
  ssoLink: pathOf(ROUTES.ssoStart, {}, { link: '1' }),
  /** The OpenAPI document: not a route of the contract (it describes the contract). */
  openapi: '/api/openapi.json',
  /** Invite codes for REGISTRATION=invite (issue 17): admins only, everyone else 404. */
  invites: ROUTES.invites.path,
  invite: (id: string) => pathOf(ROUTES.revokeInvite, { id }),
  /** Reports and moderation (issue 17): /api/moderation/* is for moderators and admins, 404 to everyone else. */
  reports: ROUTES.report.path,
  moderationQueue: ROUTES.moderationQueue.path,
  moderationLog: ROUTES.moderationLog.path,
  moderationSuspended: ROUTES.moderationSuspended.path,
  moderationDismiss: ROUTES.moderationDismiss.path,
  moderationRemovePost: ROUTES.moderationRemovePost.path,
  moderationSuspend: ROUTES.moderationSuspend.path,
  /** Lifts a suspension early: admins only. */
  moderationUnsuspend: ROUTES.moderationUnsuspend.path,
  moderationPerson: (username: string) => pathOf(ROUTES.moderationPerson, { username }),
  /** PUT: sets the role; admins only. */
  moderationRole: (username: string) => pathOf(ROUTES.moderationRole, { username }),
  posts: ROUTES.feed.path,
  post: (id: string) => pathOf(ROUTES.post, { id }),
  related: (id: string) => pathOf(ROUTES.related, { id }),
  user: (username: string) => pathOf(ROUTES.user, { username }),
  userPosts: (username: string) => pathOf(ROUTES.userPosts, { username }),
  followers: (username: string) => pathOf(ROUTES.followers, { username }),
  following: (username: string) => pathOf(ROUTES.following, { username }),
  follow: (username: string) => pathOf(ROUTES.follow, { username }),
  /** PUT blocks, DELETE unblocks (issue 17); GET API.blocks lists whom you blocked. */
  block: (username: string) => pathOf(ROUTES.block, { username }),
  blocks: ROUTES.blocks.path,
  /**
   * Boards (issue 18). Read by owner and slug (the page's address); written by id. GET
   * API.saveTargets is the Save picker: your own and joined boards, most recently used first.
   */
  boards: ROUTES.createBoard.path,
  board: (id: string) => pathOf(ROUTES.updateBoard, { id }),
  /** PUT saves the post to the board, DELETE removes it. */
  boardPost: (id: string, postId: string) => pathOf(ROUTES.savePost, { id, postId }),
  /** PUT (owner) invites; DELETE removes a member (owner) or leaves / declines (the member). */
  boardMember: (id: string, username: string) => pathOf(ROUTES.inviteMember, { id, username }),
  /** POST: an invitee joins. */
  boardJoin: (id: string) => pathOf(ROUTES.joinBoard, { id }),
  saveTargets: (postId?: string) => pathOf(ROUTES.saveTargets, {}, { post: postId }),
  userBoards: (username: string) => pathOf(ROUTES.userBoards, { username }),
  userBoard: (username: string, slug: string) => pathOf(ROUTES.userBoard, { username, slug }),
  userBoardPosts: (username: string, slug: string) => pathOf(ROUTES.userBoardPosts, { username, slug }),
  searchUsers: (query: string) => pathOf(ROUTES.searchUsers, {}, { q: query }),
  searchPosts: (query: string) => pathOf(ROUTES.searchPosts, {}, { q: query }),
} as const;

import { z } from 'zod';
import { Me } from './auth.js';
import { ErrorBody } from './common.js';
import { PageQuery, PostPage } from './posts.js';
import { defineRoute, PUBLIC, signedIn, verified } from './route.js';

/** A username from a route: the leading '@' is optional and stripped by the server. */
export const UsernameParams = z.strictObject({ username: z.string().min(1).max(64) });

export const Profile = z
  .object({
    uid: z.string(),
    username: z.string(),
    icon: z.string().nullable(),
    bio: z.string(),
    followers: z.number().int(),
    following: z.number().int(),
    /** Whether the signed-in viewer follows this user (false when signed out). */
    followedByMe: z.boolean(),
    /** Whether the signed-in viewer blocked this user (their posts are then hidden from them). */
    blockedByMe: z.boolean(),
  })
  .meta({ id: 'Profile' });
export type Profile = z.infer<typeof Profile>;
export const ProfileResponse = z.object({ user: Profile });
export type ProfileResponse = z.infer<typeof ProfileResponse>;

/** One row of a followers / following list. */
export const UserListItem = z
  .object({ uid: z.string(), username: z.string(), icon: z.string().nullable(), followers: z.number().int() })
  .meta({ id: 'UserListItem' });
export type UserListItem = z.infer<typeof UserListItem>;

export const UserPage = z.object({ users: z.array(UserListItem), nextCursor: z.string().nullable() });
export type UserPage = z.infer<typeof UserPage>;

/** After blocking or unblocking (issue 17). */
export const BlockState = z.object({ blocked: z.boolean() }).meta({ id: 'BlockState' });
export type BlockState = z.infer<typeof BlockState>;

/** GET /api/me/blocks: the accounts you blocked, most recent first. */
export const BlockedAccount = z
  .object({ uid: z.string(), username: z.string(), icon: z.string().nullable() })
  .meta({ id: 'BlockedAccount' });
export type BlockedAccount = z.infer<typeof BlockedAccount>;
export const BlockedAccounts = z.object({ users: z.array(BlockedAccount) });
export type BlockedAccounts = z.infer<typeof BlockedAccounts>;

export const FollowState = z.object({ following: z.boolean(), followers: z.number().int() }).meta({ id: 'FollowState' });
export type FollowState = z.infer<typeof FollowState>;

/** Multipart fields of PATCH /api/me (documented; parsed by hand). */
export const UpdateProfileForm = z.strictObject({
  icon: z.string().meta({ format: 'binary' }).optional(),
  bio: z.string().optional(),
});

export const UpdateProfileResponse = z.object({ user: Me });

const followErrors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 409: ErrorBody } as const;
const blockErrors = { 400: ErrorBody, 401: ErrorBody, 404: ErrorBody, 429: ErrorBody } as const;

/** Profiles, follows and blocks (issue 17). */
export const usersApi = {
  user: defineRoute({
    method: 'GET',
    path: '/api/users/:username',
    access: PUBLIC,
    tags: ['people'],
    summary: 'A profile with follower and following counts',
    params: UsernameParams,
    responses: { 200: ProfileResponse, 400: ErrorBody, 404: ErrorBody },
  }),
  /** The spec's code for a signed-out profile update is USER_DATA_NOT_FOUND. */
  updateMe: defineRoute({
    method: 'PATCH',
    path: '/api/me',
    access: signedIn('USER_DATA_NOT_FOUND'),
    tags: ['people'],
    summary: 'Update your own icon and/or bio (multipart: icon, bio), saved together',
    consumes: ['multipart/form-data'],
    body: UpdateProfileForm.optional(),
    responses: { 200: UpdateProfileResponse, 400: ErrorBody, 401: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody },
  }),
  userPosts: defineRoute({
    method: 'GET',
    path: '/api/users/:username/posts',
    access: PUBLIC,
    tags: ['people'],
    summary: "A user's posts, newest first (50 a page)",
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: PostPage, 400: ErrorBody, 404: ErrorBody },
  }),
  follow: defineRoute({
    method: 'PUT',
    path: '/api/users/:username/follow',
    access: verified(),
    tags: ['people'],
    summary: 'Follow a user (idempotent)',
    params: UsernameParams,
    responses: { 200: FollowState, ...followErrors, 403: ErrorBody },
  }),
  unfollow: defineRoute({
    method: 'DELETE',
    path: '/api/users/:username/follow',
    access: signedIn(),
    tags: ['people'],
    summary: 'Unfollow a user (idempotent)',
    params: UsernameParams,
    responses: { 200: FollowState, ...followErrors },
  }),
  followers: defineRoute({
    method: 'GET',
    path: '/api/users/:username/followers',
    access: PUBLIC,
    tags: ['people'],
    summary: 'Who follows this user',
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: UserPage, 400: ErrorBody, 404: ErrorBody },
  }),
  following: defineRoute({
    method: 'GET',
    path: '/api/users/:username/following',
    access: PUBLIC,
    tags: ['people'],
    summary: 'Whom this user follows',
    params: UsernameParams,
    query: PageQuery,
    responses: { 200: UserPage, 400: ErrorBody, 404: ErrorBody },
  }),
  block: defineRoute({
    method: 'PUT',
    path: '/api/users/:username/block',
    access: signedIn(),
    tags: ['people'],
    summary: 'Block a user (idempotent): each is hidden from the other, the follows between them end',
    params: UsernameParams,
    responses: { 200: BlockState, ...blockErrors },
  }),
  unblock: defineRoute({
    method: 'DELETE',
    path: '/api/users/:username/block',
    access: signedIn(),
    tags: ['people'],
    summary: 'Unblock a user (idempotent): visibility comes back, follows do not',
    params: UsernameParams,
    responses: { 200: BlockState, ...blockErrors },
  }),
  blocks: defineRoute({
    method: 'GET',
    path: '/api/me/blocks',
    access: signedIn(),
    tags: ['people'],
    summary: 'The accounts you blocked, most recent first',
    responses: { 200: BlockedAccounts, 401: ErrorBody },
  }),
} as const;

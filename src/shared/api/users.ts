import { z } from 'zod';
import { Me } from './auth.js';

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

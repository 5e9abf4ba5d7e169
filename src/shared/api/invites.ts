import { z } from 'zod';
import { INVITE_MAX_DAYS, INVITE_MAX_USES } from '../registration.js';
import { ErrorBody } from './common.js';
import { defineRoute, onlyFor } from './route.js';

/** An invite code that still works, as admins see it on /moderation/invites (never its code). */
export const InviteInfo = z
  .object({
    id: z.string(),
    usesLeft: z.number().int(),
    expiresAt: z.string().nullable(),
    createdAt: z.string(),
    /** Who made it: null for the admin command, or an account since deleted. */
    createdBy: z.string().nullable(),
  })
  .meta({ id: 'Invite' });
export type InviteInfo = z.infer<typeof InviteInfo>;

export const InviteList = z.object({ invites: z.array(InviteInfo) });
export type InviteList = z.infer<typeof InviteList>;

export const CreateInviteBody = z.strictObject({
  uses: z.number().int().min(1).max(INVITE_MAX_USES),
  days: z.number().int().min(1).max(INVITE_MAX_DAYS),
});
export type CreateInviteBody = z.infer<typeof CreateInviteBody>;

/** A new invite, with its code: shown this once. */
export const NewInvite = InviteInfo.extend({ code: z.string() }).meta({ id: 'NewInvite' });
export type NewInvite = z.infer<typeof NewInvite>;

/** The Invites section of /moderation: admins only; to everyone else these routes do not exist (404). */
export const invitesApi = {
  invites: defineRoute({
    method: 'GET',
    path: '/api/moderation/invites',
    access: onlyFor('admin'),
    tags: ['moderation'],
    summary: 'Invite codes that still work (admins)',
    responses: { 200: InviteList, 404: ErrorBody },
  }),
  createInvite: defineRoute({
    method: 'POST',
    path: '/api/moderation/invites',
    access: onlyFor('admin'),
    tags: ['moderation'],
    summary: 'Make an invite code for REGISTRATION=invite (admins); the code is shown only in this answer',
    body: CreateInviteBody,
    responses: { 201: NewInvite, 400: ErrorBody, 404: ErrorBody },
  }),
  revokeInvite: defineRoute({
    method: 'DELETE',
    path: '/api/moderation/invites/:id',
    access: onlyFor('admin'),
    tags: ['moderation'],
    summary: 'Revoke an invite code (admins)',
    params: z.strictObject({ id: z.string().max(64) }),
    responses: { 204: z.null(), 404: ErrorBody },
  }),
} as const;

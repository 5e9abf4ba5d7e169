import { z } from 'zod';
import { INVITE_MAX_DAYS, INVITE_MAX_USES } from '../registration.js';

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

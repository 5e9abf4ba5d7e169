import { z } from 'zod';
import { ROLES } from '../moderation.js';
import { text } from './common.js';

/** The signed-in user as the client sees themself. */
export const Me = z
  .object({
    uid: z.string(),
    username: z.string(),
    email: z.string(),
    bio: z.string(),
    /** URL of the profile picture, or null when the user has none. */
    icon: z.string().nullable(),
    /** member, moderator or admin (issue 17): staff see Moderation in Settings and /moderation. */
    role: z.enum(ROLES),
  })
  .meta({ id: 'Me' });
export type Me = z.infer<typeof Me>;

export const MeResponse = z.object({ user: Me });
export type MeResponse = z.infer<typeof MeResponse>;

export const RegisterBody = z.strictObject({
  username: text(),
  email: text(),
  password: text(),
  /** REGISTRATION=invite (issue 17); optional, so a client from before it still signs up elsewhere. */
  inviteCode: text().optional(),
});
export type RegisterBody = z.infer<typeof RegisterBody>;

export const LoginBody = z.strictObject({ identifier: text(), password: text() });
export type LoginBody = z.infer<typeof LoginBody>;

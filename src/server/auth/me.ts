import type { Me } from '../../shared/api/auth.js';
import { iconUrl } from '../directory/icon-images.js';
import type { UserRow } from './auth.queries.js';
import { mustVerify, type VerificationPolicy } from './email-verification-rule.js';

/** The signed-in user as they see themselves (with their e-mail, which nobody else sees). */
export function toMe(user: UserRow, policy: VerificationPolicy): Me {
  return {
    uid: user.id,
    username: user.username,
    email: user.email,
    bio: user.bio,
    icon: iconUrl(user.iconKey),
    role: user.role,
    emailVerified: user.emailVerifiedAt !== null,
    pendingEmail: user.pendingEmail,
    mustVerify: mustVerify(user, policy),
    hasPassword: user.hasPassword,
  };
}

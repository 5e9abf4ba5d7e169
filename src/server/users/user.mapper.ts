import type { Me } from '../../shared/api/auth.js';
import type { UserRow } from '../auth/auth.queries.js';

/** Public URL of a stored file. Keys change whenever content changes, so URLs can be cached forever. */
export function mediaUrl(key: string | null): string | null {
  return key ? `/media/${key}` : null;
}

export function toMe(user: UserRow): Me {
  return {
    uid: user.id,
    username: user.username,
    email: user.email,
    bio: user.bio,
    icon: mediaUrl(user.iconKey),
  };
}

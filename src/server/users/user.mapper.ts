import type { Me } from '../../shared/api/auth.js';
import type { UserRow } from '../auth/auth.queries.js';
import { iconUrl } from './icon-images.js';


export function toMe(user: UserRow): Me {
  return {
    uid: user.id,
    username: user.username,
    email: user.email,
    bio: user.bio,
    icon: iconUrl(user.iconKey),
  };
}

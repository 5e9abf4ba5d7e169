import type { Role } from '../../shared/moderation.js';

/**
 * Who is asking: all a service needs to know of the signed-in user. Never their password hash or
 * e-mail: only the account modules (auth, accounts, the user's own profile) see the whole row
 * (auth/session-account.ts).
 */
export interface Viewer {
  readonly id: string;
  readonly username: string;
  readonly role: Role;
}

export const viewerOf = (user: Viewer): Viewer => ({ id: user.id, username: user.username, role: user.role });

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null: decided from the session cookie alone (auth/access.ts). */
    viewer: Viewer | null;
    /** The public id of the session the request was made in (null when signed out). */
    sessionId: string | null;
    /** The viewer's latest change, for read-your-writes across processes (db/change-feed.ts). */
    viewerLastChange: { lastChangeId: string | null; lastChangeAt: Date | null } | null;
  }
}

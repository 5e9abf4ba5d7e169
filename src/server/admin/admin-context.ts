import { AuthService } from '../auth/auth.service.js';
import { Invites } from '../auth/invites.js';
import { PasswordResetService } from '../auth/password-reset.service.js';
import { SessionCache } from '../auth/session-cache.js';
import { StoredEmails } from '../auth/stored-emails.js';
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { MemoryCounterStore, RateLimiter } from '../http/rate-limiter.js';
import { EmailVerifiedByAdmin } from '../moderation/email-verified-by-admin.js';
import { Roles } from '../moderation/roles.js';
import type { AdminContext } from './admin-command.js';

/**
 * The command line's own services, for when it holds the database itself: PostgreSQL (whose
 * servers cache no sessions, so a change here reaches them on their next request), or an
 * embedded database no server has open.
 */
export function standaloneAdminContext(database: Database, config: Config): AdminContext {
  const limiter = new RateLimiter(new MemoryCounterStore());
  const sessions = SessionCache.off();
  const auth = new AuthService(database.orm, limiter, config.rateLimits, sessions, config.passwordHashing);
  return {
    resets: new PasswordResetService({ db: database.orm, auth, sessions, limiter, limits: config.rateLimits }),
    invites: new Invites(database.orm),
    roles: new Roles(database.orm, sessions),
    storedEmails: new StoredEmails(database.orm),
    emailVerifiedByAdmin: new EmailVerifiedByAdmin(database.orm, sessions),
    publicUrl: config.publicUrl,
  };
}

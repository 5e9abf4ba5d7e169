import { asc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { parseEmail } from '../../shared/validation/email.js';
import type { AppDb } from '../db/database.js';
import { users } from '../db/schema.js';

/** An account whose stored address the e-mail parser refuses, or would spell otherwise. */
export interface RefusedEmail {
  username: string;
  email: string;
}

/**
 * Addresses stored before the strict parser (issue 26) may be ones it refuses: a list of two
 * ('att@evil.test,x@campus.example.edu'), non-ASCII letters. They are left as they are (the
 * account still signs in by username) and get no mail; this finds them for the operator.
 */
export class StoredEmails {
  constructor(private readonly db: AppDb) {}

  /** One query for every address; the parser runs here, as it does for every new one. */
  async refused(): Promise<RefusedEmail[]> {
    const rows = await this.db.select({ username: users.username, email: users.email }).from(users).orderBy(asc(users.username));
    return rows.filter((row) => parseEmail(row.email)?.address !== row.email);
  }
}

/**
 * Once the server is ready: one warning with how many stored addresses the parser refuses, and
 * the command that lists them. Not awaited by the start (it reads every address: about 4 s for
 * 100,000 accounts on the embedded database), but by the close, so it never outlives the database.
 */
export function warnOfRefusedEmails(app: FastifyInstance, storedEmails: StoredEmails) {
  let check: Promise<void> | undefined;
  app.addHook('onReady', async () => {
    check = storedEmails.refused().then(
      (refused) => {
        if (refused.length === 0) return;
        app.log.warn(
          { count: refused.length },
          `${refused.length} stored e-mail address(es) are not valid and get no mail: list them with npm run admin -- invalid-emails`,
        );
      },
      (error: unknown) => app.log.warn({ err: error }, 'could not check the stored e-mail addresses'),
    );
  });
  app.addHook('onClose', async () => check);
}

import { asc } from 'drizzle-orm';
import { storedEmail } from '../../shared/validation/email.js';
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
 * account still signs in by username) and get no mail; this finds them for the operator. The
 * server counts them as it gives older rows their look-alike keys (lookalikes/fill-keys.ts).
 */
export class StoredEmails {
  constructor(private readonly db: AppDb) {}

  /** One query for every address; the parser runs here, as it does for every new one. */
  async refused(): Promise<RefusedEmail[]> {
    const rows = await this.db.select({ username: users.username, email: users.email }).from(users).orderBy(asc(users.username));
    return rows.filter((row) => !storedEmail(row.email));
  }
}

import { eq } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { users } from '../db/schema.js';
import type { UserRow } from '../auth/auth.queries.js';

/**
 * Saves bio and icon together; undefined leaves a field as it is. Returns the icon key it
 * replaced, read under a row lock, so two simultaneous uploads each learn exactly which old
 * files are theirs to delete.
 */
export async function updateProfile(
  db: AppDb,
  userId: string,
  changes: { bio?: string; iconKey?: string },
): Promise<{ user: UserRow; replacedIconKey: string | null }> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ iconKey: users.iconKey }).from(users).where(eq(users.id, userId)).for('update');
    const [row] = await tx.update(users).set(changes).where(eq(users.id, userId)).returning();
    return { user: row!, replacedIconKey: changes.iconKey ? (before?.iconKey ?? null) : null };
  });
}

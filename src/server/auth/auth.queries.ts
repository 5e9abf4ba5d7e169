import { eq, lte, or } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { sessions, users } from '../db/schema.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByUsername(db: AppDb, username: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  return row;
}

export async function findUserByEmail(db: AppDb, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

/** Which of a username and an e-mail are already registered, in one query. */
export async function findTaken(db: AppDb, username: string, email: string) {
  const rows = await db
    .select({ username: users.username, email: users.email })
    .from(users)
    .where(or(eq(users.username, username), eq(users.email, email)));
  return {
    usernameTaken: rows.some((row) => row.username === username),
    emailTaken: rows.some((row) => row.email === email),
  };
}

export async function insertUser(db: AppDb, user: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  return row!;
}

export async function insertSession(db: AppDb, tokenHash: string, userId: string, expiresAt: Date) {
  await db.insert(sessions).values({ tokenHash, userId, expiresAt });
}

/** A session and its user, expired or not (the service decides, and deletes what has expired). */
export async function findSession(db: AppDb, tokenHash: string): Promise<{ user: UserRow; expiresAt: Date; createdAt: Date } | undefined> {
  const [row] = await db
    .select({ user: users, expiresAt: sessions.expiresAt, createdAt: sessions.createdAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, tokenHash))
    .limit(1);
  return row;
}

/** Moves a session's expiry; false when the session is gone (ended by another request). */
export async function renewSession(db: AppDb, tokenHash: string, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ expiresAt })
    .where(eq(sessions.tokenHash, tokenHash))
    .returning({ tokenHash: sessions.tokenHash });
  return rows.length > 0;
}

export async function deleteSession(db: AppDb, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteUserSessions(db: AppDb, userId: string) {
  await db.delete(sessions).where(eq(sessions.userId, userId));
}

/** Every user's expired sessions (sessions_expires_at_idx finds them). */
export async function deleteExpiredSessions(db: AppDb) {
  await db.delete(sessions).where(lte(sessions.expiresAt, new Date()));
}

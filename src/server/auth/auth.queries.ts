import { and, eq, gt, lte, or } from 'drizzle-orm';
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
    username: rows.some((row) => row.username === username),
    email: rows.some((row) => row.email === email),
  };
}

export async function insertUser(db: AppDb, user: typeof users.$inferInsert): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  return row!;
}

export async function insertSession(db: AppDb, tokenHash: string, userId: string, expiresAt: Date) {
  await db.insert(sessions).values({ tokenHash, userId, expiresAt });
}

/** The user a live session belongs to; expired sessions count as none. */
export async function findSessionUser(db: AppDb, tokenHash: string): Promise<{ user: UserRow; expiresAt: Date } | undefined> {
  const [row] = await db
    .select({ user: users, expiresAt: sessions.expiresAt })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.tokenHash, tokenHash), gt(sessions.expiresAt, new Date())))
    .limit(1);
  return row;
}

export async function deleteSession(db: AppDb, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

export async function deleteExpiredSessions(db: AppDb, userId: string) {
  await db.delete(sessions).where(and(eq(sessions.userId, userId), lte(sessions.expiresAt, new Date())));
}

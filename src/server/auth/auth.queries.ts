import { and, desc, eq, lte, ne, or, sql } from 'drizzle-orm';
import { builtOnce } from '../db/built-once.js';
import type { AppDb } from '../db/database.js';
import { passwordResets, sessions, users } from '../db/schema.js';
import { lookalikeKey } from '../lookalikes/skeleton.js';
import { isUsernameHeld } from './username-hold.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByUsername(db: AppDb, username: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.username, username)).limit(1);
  return row;
}

export async function findUserById(db: AppDb, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function findUserByEmail(db: AppDb, email: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row;
}

/**
 * Which of a username and an e-mail are already registered. A deleted account's name counts as
 * registered while it is held (username-hold.ts); an address counts as registered when one that
 * looks like it is (the same look-alike key: lookalikes/skeleton.ts).
 */
export async function findTaken(db: AppDb, username: string, email: string) {
  const emailSkeleton = lookalikeKey(email);
  const [rows, held] = await Promise.all([
    db
      .select({ username: users.username, email: users.email, emailSkeleton: users.emailSkeleton })
      .from(users)
      .where(or(eq(users.username, username), eq(users.email, email), eq(users.emailSkeleton, emailSkeleton))),
    username === '' ? false : isUsernameHeld(db, username),
  ]);
  return {
    usernameTaken: held || rows.some((row) => row.username === username),
    emailTaken: email !== '' && rows.some((row) => row.email === email || row.emailSkeleton === emailSkeleton),
  };
}

/** A new account; its address's look-alike key is added here, so no insert goes without it. */
export async function insertUser(db: AppDb, user: Omit<typeof users.$inferInsert, 'emailSkeleton'>): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ ...user, emailSkeleton: lookalikeKey(user.email) })
    .returning();
  return row!;
}

export interface NewSession {
  tokenHash: string;
  id: string;
  userId: string;
  expiresAt: Date;
  userAgent: string;
  /** The account's session epoch as the sign-in read it, before its password check. */
  epoch: number;
}

/**
 * Inserts the session only if its account is still in the epoch the sign-in read and is not
 * suspended; false otherwise. One statement on the account's row locked FOR SHARE: a change
 * that moves the epoch on (endSessions, which updates that row first) either commits before it,
 * and the insert finds no row, or waits for it, and then deletes the session it inserted.
 */
export async function insertSessionIfCurrent(db: AppDb, session: NewSession): Promise<boolean> {
  const result = await db.execute(sql`
    INSERT INTO ${sessions} (token_hash, id, user_id, expires_at, user_agent, epoch)
    SELECT ${session.tokenHash}, ${session.id}, ${users.id}, ${session.expiresAt.toISOString()}::timestamptz, ${session.userAgent}, ${users.sessionEpoch}
    FROM ${users}
    WHERE ${users.id} = ${session.userId}
      AND ${users.sessionEpoch} = ${session.epoch}
      AND (${users.suspendedUntil} IS NULL OR ${users.suspendedUntil} <= now())
    FOR SHARE
    RETURNING token_hash`);
  return (result as { rows: unknown[] }).rows.length > 0;
}

export interface FoundSession {
  user: UserRow;
  id: string;
  epoch: number;
  expiresAt: Date;
  createdAt: Date;
  lastSeenAt: Date;
}

/** A session and its user, expired or not (the service decides, and deletes what has expired). */
export async function findSession(db: AppDb, tokenHash: string): Promise<FoundSession | undefined> {
  const [row] = await sessionByToken(db).execute({ tokenHash });
  return row;
}

/** Every signed-in request reads its session: built once (db/built-once.ts). */
const sessionByToken = builtOnce((db) =>
  db
    .select({
      user: users,
      id: sessions.id,
      epoch: sessions.epoch,
      expiresAt: sessions.expiresAt,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.tokenHash, sql.placeholder('tokenHash')))
    .limit(1)
    .prepare('session_by_token'),
);

/** Records a use of a session (and a later expiry); false when the session is gone (ended meanwhile). */
export async function touchSession(db: AppDb, tokenHash: string, update: { expiresAt?: Date; lastSeenAt: Date }): Promise<boolean> {
  const rows = await db.update(sessions).set(update).where(eq(sessions.tokenHash, tokenHash)).returning({ tokenHash: sessions.tokenHash });
  return rows.length > 0;
}

/** A user's sessions, most recently used first. */
export async function listSessions(db: AppDb, userId: string) {
  return db
    .select({
      id: sessions.id,
      tokenHash: sessions.tokenHash,
      epoch: sessions.epoch,
      userAgent: sessions.userAgent,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
    })
    .from(sessions)
    .where(eq(sessions.userId, userId))
    .orderBy(desc(sessions.lastSeenAt), desc(sessions.createdAt));
}

/** Ends one of the user's sessions by its public id; the token's hash, or undefined when none matched. */
export async function deleteSessionById(db: AppDb, userId: string, id: string): Promise<string | undefined> {
  const [row] = await db
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), eq(sessions.id, id)))
    .returning({ tokenHash: sessions.tokenHash });
  return row?.tokenHash;
}

/**
 * A credential or status change: moves the account's session epoch on, so every session made
 * before it (and any a racing sign-in inserts) is over (auth/session-rule.ts), and deletes them;
 * `keepTokenHash` names the one to keep (Change Password's own), carried into the new epoch.
 * The account's row is updated first, in the caller's transaction: that row lock is what a
 * racing insertSessionIfCurrent waits on. Undefined when the account is gone.
 */
export async function endSessions(
  tx: AppDb,
  userId: string,
  keepTokenHash?: string,
): Promise<{ sessionEpoch: number; suspendedUntil: Date | null } | undefined> {
  const [account] = await tx
    .update(users)
    .set({ sessionEpoch: sql`${users.sessionEpoch} + 1` })
    .where(eq(users.id, userId))
    .returning({ sessionEpoch: users.sessionEpoch, suspendedUntil: users.suspendedUntil });
  if (!account) return undefined;
  const others =
    keepTokenHash === undefined ? eq(sessions.userId, userId) : and(eq(sessions.userId, userId), ne(sessions.tokenHash, keepTokenHash));
  await tx.delete(sessions).where(others);
  if (keepTokenHash !== undefined) {
    await tx
      .update(sessions)
      .set({ epoch: account.sessionEpoch })
      .where(and(eq(sessions.userId, userId), eq(sessions.tokenHash, keepTokenHash)));
  }
  return account;
}

export async function deleteSession(db: AppDb, tokenHash: string) {
  await db.delete(sessions).where(eq(sessions.tokenHash, tokenHash));
}

/** Every user's expired sessions (sessions_expires_at_idx finds them). */
export async function deleteExpiredSessions(db: AppDb) {
  await db.delete(sessions).where(lte(sessions.expiresAt, new Date()));
}

/** A new password; any reset link the account had is void with it (it was for the old one). */
export async function setPasswordHash(db: AppDb, userId: string, passwordHash: string) {
  // An account made through single sign-on has a password of its own from now on (issue 29).
  await db.update(users).set({ passwordHash, hasPassword: true }).where(eq(users.id, userId));
  await db.delete(passwordResets).where(eq(passwordResets.userId, userId));
}

import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/** Bytes of a generated secret; SERVER_SECRET must be at least this many characters. */
export const SERVER_SECRET_MIN_LENGTH = 32;

const fileOf = (dataDir: string) => path.join(dataDir, 'server-secret');

/**
 * The server's own secret, the key of hashes a copy of the database alone must not open
 * (auth/username-hold.ts). SERVER_SECRET when set: processes sharing one PostgreSQL database must
 * all set the same. Else DATA_DIR/server-secret, 32 random bytes made at the first start and kept
 * (owner-only): the embedded database has one process, and its DATA_DIR is the one place it keeps
 * what it needs. Made aside and linked into place, so two processes starting at once read one.
 */
export async function loadServerSecret(options: { serverSecret: string | undefined; dataDir: string }): Promise<Buffer> {
  if (options.serverSecret) return Buffer.from(options.serverSecret, 'utf8');
  const file = fileOf(options.dataDir);
  await fs.mkdir(options.dataDir, { recursive: true });
  const staging = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await fs.writeFile(staging, randomBytes(SERVER_SECRET_MIN_LENGTH).toString('base64url'), { mode: 0o600 });
  try {
    await fs.link(staging, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await fs.rm(staging, { force: true });
  }
  const secret = Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64url');
  if (secret.length < SERVER_SECRET_MIN_LENGTH)
    throw new Error(`${file} holds no secret: delete it to make a new one, or set SERVER_SECRET`);
  return secret;
}

/** HMAC-SHA-256 of `text` for one purpose: the same text hashes differently for each purpose. */
export function keyedHash(secret: Buffer, purpose: string, text: string): string {
  return createHmac('sha256', secret).update(`${purpose}\0${text}`).digest('hex');
}

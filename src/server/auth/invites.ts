import { createHash, randomInt } from 'node:crypto';
import type { InviteInfo, NewInvite } from '../../shared/api/invites.js';
import { formatInviteCode, INVITE_ALPHABET, INVITE_CODE_LENGTH, normalizeInviteCode } from '../../shared/registration.js';
import type { AppDb } from '../db/database.js';
import { AppError } from '../http/app-error.js';
import * as queries from './invites.queries.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** A new code: uniform over the alphabet (randomInt, no modulo bias), from the system's CSPRNG. */
function newInviteCode(): string {
  return Array.from({ length: INVITE_CODE_LENGTH }, () => INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)]).join('');
}

/**
 * What is stored and looked up: the SHA-256 of the code as normalized (case, spaces and dashes
 * do not matter), so a copy of the database lets no one in. A plain hash is enough: the code is
 * random and long, there is nothing to guess from a dictionary. Undefined for what cannot be a
 * code, which needs no lookup.
 */
export function inviteCodeHash(typed: string): string | undefined {
  const code = normalizeInviteCode(typed);
  if (code.length !== INVITE_CODE_LENGTH || [...code].some((char) => !INVITE_ALPHABET.includes(char))) return undefined;
  return createHash('sha256').update(code).digest('hex');
}

/** Invite codes for REGISTRATION=invite: made by admins (npm run admin -- invite, /moderation/invites). */
export class Invites {
  constructor(private readonly db: AppDb) {}

  /** The code is shown once, here; only its hash is kept. createdBy: null from the admin command. */
  async create(createdBy: string | null, uses: number, days: number): Promise<NewInvite> {
    const code = newInviteCode();
    const row = await queries.insertInvite(this.db, {
      codeHash: inviteCodeHash(code)!,
      createdBy,
      usesLeft: uses,
      expiresAt: new Date(Date.now() + days * DAY_MS),
    });
    return { code: formatInviteCode(code), ...toInfo({ ...row, createdBy: null }) };
  }

  async live(): Promise<InviteInfo[]> {
    return (await queries.listLiveInvites(this.db)).map(toInfo);
  }

  /** Revoked at once: the next sign-up with it is refused (a sign-up mid-way may still finish). */
  async revoke(id: string): Promise<void> {
    if (!(await queries.deleteInvite(this.db, id))) throw new AppError(404, 'NOT_FOUND');
  }
}

function toInfo(row: {
  codeHash: string;
  usesLeft: number;
  expiresAt: Date | null;
  createdAt: Date;
  createdBy: string | null;
}): InviteInfo {
  return {
    // The hash names the invite: it is no secret (the code cannot be found from it) and is unique.
    id: row.codeHash,
    usesLeft: row.usesLeft,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    createdBy: row.createdBy,
  };
}

import type { Role } from '../../shared/moderation.js';
import { AppError } from '../http/app-error.js';

/** Whoever acts: a signed-in moderator or admin (their Viewer is one), or `npm run admin` (no account of its own). */
export interface Actor {
  id: string | null;
  username: string;
  role: Role;
}

/** The command line acts as an admin; the log names it so. */
export const COMMAND_LINE: Actor = { id: null, username: 'admin command line', role: 'admin' };

/**
 * THE rule of who may act on whom (issue 17), used by the service for every action and by the
 * queue to say which buttons to show: nobody on themselves (a moderator cannot lift their own
 * suspension or promote themselves); moderators on members only (never an admin, nor another
 * moderator: one rogue moderator must not be able to lock the others out); admins on anyone else.
 */
export function mayActOn(actor: Actor, target: { id: string; role: Role }): boolean {
  if (actor.id === target.id) return false;
  return actor.role === 'admin' || (actor.role === 'moderator' && target.role === 'member');
}

/** Refuses with 403 when mayActOn says no; the log hears of it as a refused authorization. */
export function assertMayActOn(actor: Actor, target: { id: string; role: Role }) {
  if (!mayActOn(actor, target)) throw new AppError(403, 'MODERATION_NOT_ALLOWED').withAudit({ event: 'authorization refused' });
}

/** Changing roles and lifting suspensions early are for admins. */
export function assertAdmin(actor: Actor) {
  if (actor.role !== 'admin') throw new AppError(403, 'MODERATION_NOT_ALLOWED').withAudit({ event: 'authorization refused' });
}

import type { Invites } from '../auth/invites.js';
import type { PasswordResetService } from '../auth/password-reset.service.js';
import type { StoredEmails } from '../auth/stored-emails.js';
import type { EmailVerifiedByAdmin } from '../moderation/email-verified-by-admin.js';
import type { Roles } from '../moderation/roles.js';

/**
 * What a command works with: the services of whichever process runs it (the running server's
 * own, for the embedded database; the command line's, for PostgreSQL or when no server runs).
 */
export interface AdminContext {
  resets: PasswordResetService;
  invites: Invites;
  /** Roles (issue 17): `role <username> <role>`. */
  roles: Roles;
  /** `invalid-emails` (issue 26). */
  storedEmails: StoredEmails;
  /** `verify <username>` (issue 29). */
  emailVerifiedByAdmin: EmailVerifiedByAdmin;
  /** Where users reach the site (PUBLIC_URL): links are made only with it. */
  publicUrl: string | undefined;
}

/**
 * One `npm run admin -- <name> [args]` command. A new one (promote a moderator, suspend a user)
 * is one more entry in commands.ts: the help, the argument checks and where it runs come with it.
 */
export interface AdminCommand<Args = unknown> {
  name: string;
  /** The arguments, as the help shows them: `<username>`. */
  usage: string;
  summary: string;
  /** The arguments checked and converted; throws UsageError. Runs before anything is opened. */
  parse(args: string[]): Args;
  /** Does the work; returns what to print. Throws CommandFailed for a real failure (no such user). */
  run(context: AdminContext, args: Args): Promise<string>;
}

/** Bad arguments: the message and the command's usage are printed, and the exit code is 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The command could not do its work (no such user): the message is printed, exit code 1. */
export class CommandFailed extends Error {
  override name = 'CommandFailed';
}

/** Exactly `names.length` arguments, or a UsageError that says what is missing or extra. */
export function positional(args: string[], names: string[]): string[] {
  if (args.length < names.length) throw new UsageError(`missing ${names.slice(args.length).join(' ')}`);
  if (args.length > names.length) throw new UsageError(`unexpected ${args.slice(names.length).join(' ')}`);
  return args;
}

import { CommandFailed, UsageError, type AdminCommand, type AdminContext } from './admin-command.js';
import { invalidEmailsCommand } from './invalid-emails.command.js';
import { inviteCommand } from './invite.command.js';
import { resetLinkCommand } from './reset-link.command.js';
import { roleCommand } from './role.command.js';
import { verifyCommand } from './verify.command.js';

/** Every command, in the order `help` lists them. */
export const ADMIN_COMMANDS: ReadonlyArray<AdminCommand> = [
  resetLinkCommand,
  inviteCommand,
  roleCommand,
  verifyCommand,
  invalidEmailsCommand,
];

const HELP_WORDS = new Set(['help', '--help', '-h']);

/** The result of a command line: what goes to stdout and stderr, and the exit code. */
export interface AdminResult {
  code: 0 | 1 | 2;
  stdout: string;
  stderr: string;
}

const usageOf = (command: AdminCommand) => `npm run admin -- ${command.name} ${command.usage}`.trimEnd();

export function adminHelp(): string {
  const width = Math.max(...ADMIN_COMMANDS.map((command) => usageOf(command).length));
  return [
    'Usage: npm run admin -- <command> [arguments]',
    '',
    'Commands:',
    ...ADMIN_COMMANDS.map((command) => `  ${usageOf(command).padEnd(width)}  ${command.summary}`),
    `  ${'npm run admin -- help'.padEnd(width)}  Show this list.`,
    '',
    'With DATABASE_URL set, the command runs here on PostgreSQL. On the embedded database it runs',
    'in the server running on DATA_DIR, or here when none runs.',
  ].join('\n');
}

/** A command line, parsed: help, a command ready to run, or a usage error (exit code 2). */
export type ParsedCommand =
  { kind: 'help' } | { kind: 'run'; command: AdminCommand; args: unknown } | { kind: 'usage'; result: AdminResult };

const usageError = (message: string, usage: string): ParsedCommand => ({
  kind: 'usage',
  result: { code: 2, stdout: '', stderr: `${message}\n\n${usage}\n` },
});

/** Pure: needs no database, so a typo is answered before anything is opened. */
export function parseCommandLine(argv: string[]): ParsedCommand {
  const [name, ...args] = argv;
  if (name === undefined || HELP_WORDS.has(name)) return { kind: 'help' };
  const command = ADMIN_COMMANDS.find((candidate) => candidate.name === name);
  if (!command) return usageError(`Unknown command: ${name}`, adminHelp());
  try {
    return { kind: 'run', command, args: command.parse(args) };
  } catch (error) {
    if (error instanceof UsageError) return usageError(`${command.name}: ${error.message}`, `Usage: ${usageOf(command)}`);
    throw error;
  }
}

/**
 * Runs a command line against a context: the one code path for the command line and the running
 * server alike. Other failures (the database is down) are the caller's to report.
 */
export async function runCommandLine(context: AdminContext, argv: string[]): Promise<AdminResult> {
  const parsed = parseCommandLine(argv);
  if (parsed.kind === 'help') return { code: 0, stdout: `${adminHelp()}\n`, stderr: '' };
  if (parsed.kind === 'usage') return parsed.result;
  try {
    return { code: 0, stdout: `${await parsed.command.run(context, parsed.args)}\n`, stderr: '' };
  } catch (error) {
    if (error instanceof CommandFailed) return { code: 1, stdout: '', stderr: `${parsed.command.name}: ${error.message}\n` };
    throw error;
  }
}

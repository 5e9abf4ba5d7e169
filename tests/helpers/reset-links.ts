import { expect } from 'vitest';
import { standaloneAdminContext } from '../../src/server/admin/admin-context.js';
import { runCommandLine } from '../../src/server/admin/commands.js';
import type { TestApp } from './test-app.js';

/** PUBLIC_URL for the links resetLinkFor makes when the app has none. */
export const TEST_PUBLIC_URL = 'http://dorm.test';

/** The token of a reset link in some text (a command's output, a mail). */
export const resetTokenIn = (text: string) => /\/reset\/([\w-]{43})\b/.exec(text)?.[1];

/**
 * A reset link for the account, made by `npm run admin -- reset-link`'s own code (in this
 * process, on the app's database): its token, and what the command printed.
 */
export async function resetLinkFor(t: TestApp, username: string): Promise<{ token: string; output: string }> {
  // The command makes links only with PUBLIC_URL (most test apps have none).
  const config = { ...t.config, publicUrl: t.config.publicUrl ?? TEST_PUBLIC_URL };
  const result = await runCommandLine(standaloneAdminContext(t.database, config), ['reset-link', username]);
  expect(result.code, result.stderr).toBe(0);
  const token = resetTokenIn(result.stdout);
  if (!token) throw new Error(`no link in ${result.stdout}`);
  return { token, output: result.stdout };
}

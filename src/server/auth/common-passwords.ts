import { readFileSync } from 'node:fs';

/**
 * The 10,000 most common passwords, lower-cased (OWASP ASVS: refuse passwords attackers try
 * first). Written by scripts/common-passwords.mjs. Server-only: on the client it would add about
 * 38 KB gzipped to an initial bundle budgeted at 110 KB.
 *
 * WARNING: the list is read from beside this module. In the production bundle this module is
 * dist/server/main.js, so `npm run build:server` copies the file to dist/server/. Reading it at
 * start-up makes a missing copy stop the server at once instead of failing sign-ups later.
 */
export const COMMON_PASSWORDS: ReadonlySet<string> = new Set(
  readFileSync(new URL('./common-passwords.txt', import.meta.url), 'utf8')
    .split('\n')
    .filter(Boolean),
);

/** Whether the password is on the list, ignoring case ('Password1' is as weak as 'password1'). */
export function isCommonPassword(password: string): boolean {
  return COMMON_PASSWORDS.has(password.toLowerCase());
}

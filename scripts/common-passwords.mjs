/**
 * Writes src/server/auth/common-passwords.txt: the 10,000 most common passwords, lower-cased
 * and deduplicated, one per line, most common first. The source is the ranked `passwords`
 * dictionary of @zxcvbn-ts/language-common (a devDependency), so the server reads a plain
 * committed file and never needs the package at run time.
 *
 *   node scripts/common-passwords.mjs
 */
import { writeFileSync } from 'node:fs';
import { dictionary } from '@zxcvbn-ts/language-common';

const COUNT = 10_000;
const OUTPUT = new URL('../src/server/auth/common-passwords.txt', import.meta.url);

const ranked = dictionary['passwords-common'];
const top = new Set();
for (const password of ranked) {
  if (top.size === COUNT) break;
  // Lines are the file's separator, so an entry can't hold one (none do today).
  if (!/[\r\n]/.test(password)) top.add(password.toLowerCase());
}
if (top.size < COUNT) throw new Error(`only ${top.size} distinct passwords in the dictionary, wanted ${COUNT}`);

writeFileSync(OUTPUT, `${[...top].join('\n')}\n`);
console.log(`wrote ${top.size} passwords to ${OUTPUT.pathname}`);

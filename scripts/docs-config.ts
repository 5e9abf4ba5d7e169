/**
 * `npm run docs:config`: writes the README's configuration table from the settings' schema
 * (src/server/config/settings.ts), formatted as `npm run format` would.
 * tests/unit/config-readme.test.ts fails when the README's table differs from it.
 */
import fs from 'node:fs';
import { formattedReadme } from './config-readme.js';

const file = new URL('../README.md', import.meta.url);
const before = fs.readFileSync(file, 'utf8');
const after = await formattedReadme(before);
fs.writeFileSync(file, after);
console.log(after === before ? 'README.md: the config table was up to date' : 'README.md: config table rewritten');

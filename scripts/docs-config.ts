/**
 * `npm run docs:config`: writes docs/configuration.md from the settings' schema
 * (src/server/config/settings.ts), formatted as `npm run format` would.
 * tests/unit/config-doc.test.ts fails when the file differs from it.
 */
import fs from 'node:fs';
import { configurationDocPath, formattedConfigurationDoc } from './config-doc.js';

const before = fs.existsSync(configurationDocPath) ? fs.readFileSync(configurationDocPath, 'utf8') : '';
const after = await formattedConfigurationDoc();
fs.writeFileSync(configurationDocPath, after);
console.log(after === before ? 'docs/configuration.md was up to date' : 'docs/configuration.md rewritten');

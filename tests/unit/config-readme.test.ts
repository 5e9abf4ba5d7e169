import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formattedReadme } from '../../scripts/config-readme.js';
import { REPLACED_SETTINGS, SETTINGS } from '../../src/server/config/settings.js';
import { TABLE_END, TABLE_START } from '../../src/server/config/settings-table.js';

const between = (text: string) => text.slice(text.indexOf(TABLE_START), text.indexOf(TABLE_END));

/** Every .ts file under a directory. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(dir, file));
}

describe("the README's configuration table", () => {
  it('is the one the settings make', async () => {
    const readme = fs.readFileSync('README.md', 'utf8');
    expect(between(readme), "README.md's configuration table differs from src/server/config/settings.ts: run `npm run docs:config`").toBe(
      between(await formattedReadme(readme)),
    );
  });

  it('lists every environment variable the server reads: only config/settings.ts reads the environment', () => {
    const declared = new Set([...Object.keys(SETTINGS), ...Object.keys(REPLACED_SETTINGS)]);
    const undeclared: string[] = [];
    const readsOutsideSettings: string[] = [];
    // What the end-to-end runs and `npm run screenshots` give the server must be settings too.
    for (const file of [...sources('src/server'), 'scripts/local-server.ts']) {
      const code = fs.readFileSync(file, 'utf8');
      // process.env.X, process.env['X'], env.X, env['X'], and the keys of an env object literal ({ PORT: … }).
      for (const [, name] of code.matchAll(/\benv(?:\.|\[['"`])([A-Z][A-Z0-9_]*)/g)) {
        if (!declared.has(name!)) undeclared.push(`${file}: ${name}`);
      }
      if (file === 'scripts/local-server.ts') {
        for (const [, name] of code.matchAll(/^\s+([A-Z][A-Z0-9_]+):/gm)) if (!declared.has(name!)) undeclared.push(`${file}: ${name}`);
      }
      // Handing the whole environment to loadConfig is how the tools read it; reading one variable is not.
      if (/process\.env(\.|\[)/.test(code)) readsOutsideSettings.push(file);
    }
    expect(undeclared, 'variables read but not declared in src/server/config/settings.ts').toEqual([]);
    expect(readsOutsideSettings, 'read the environment through loadConfig (config/settings.ts), not process.env').toEqual([]);
  });
});

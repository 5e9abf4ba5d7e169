import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { configurationDocPath, formattedConfigurationDoc } from '../../scripts/config-doc.js';
import { integer } from '../../src/server/config/setting.js';
import { SETTING_GROUPS, type SettingGroup } from '../../src/server/config/setting-groups.js';
import { settingsOf } from '../../src/server/config/settings-doc.js';
import { REPLACED_SETTINGS, SETTINGS } from '../../src/server/config/settings.js';

/** Every .ts file under a directory. */
function sources(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) => path.join(dir, file));
}

/** docs/configuration.md's `##` sections: each heading with the variables its table lists. */
function sectionsOf(doc: string): { title: string; names: string[] }[] {
  return doc
    .split(/^## /m)
    .slice(1)
    .map((section) => ({
      title: section.slice(0, section.indexOf('\n')),
      names: [...section.matchAll(/^\| `([A-Z][A-Z0-9_]*)` +\|/gm)].map(([, name]) => name!),
    }));
}

describe('docs/configuration.md', () => {
  const doc = fs.readFileSync(configurationDocPath, 'utf8');

  it('is the page the settings make', async () => {
    expect(doc, 'docs/configuration.md differs from src/server/config/settings.ts: run `npm run docs:config`').toBe(
      await formattedConfigurationDoc(),
    );
  });

  it('lists every setting exactly once, in the section of its group, and no group empty', () => {
    const sections = sectionsOf(doc);
    expect(sections.map((section) => section.title)).toEqual(Object.values(SETTING_GROUPS).map((group) => group.title));
    const listed = sections.flatMap((section) => section.names);
    expect([...listed].sort()).toEqual(Object.keys(SETTINGS).sort());
    expect(listed.length, 'a variable is listed twice').toBe(new Set(listed).size);
    for (const [group, { title }] of Object.entries(SETTING_GROUPS) as [SettingGroup, { title: string }][]) {
      const section = sections.find((candidate) => candidate.title === title)!;
      expect(section.names, title).toEqual(settingsOf(group));
      expect(section.names.length, `${title} has no settings`).toBeGreaterThan(0);
    }
  });

  it('a setting must name its group', () => {
    // The compiler is the check: a setting without `group` does not typecheck, so none can be
    // left out of the page (were `group` optional, the directive below would fail typecheck).
    // @ts-expect-error group is required
    const ungrouped = integer({ default: 1, about: 'a setting without a group' });
    expect(ungrouped.group).toBeUndefined();
    for (const setting of Object.values(SETTINGS)) expect(Object.keys(SETTING_GROUPS)).toContain(setting.group);
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

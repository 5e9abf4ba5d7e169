import { SETTINGS } from './settings.js';

/** Where the README's configuration table starts and ends; `npm run docs:config` rewrites what is between. */
export const TABLE_START = '<!-- config table: made by `npm run docs:config` from src/server/config/settings.ts; edit it there -->';
export const TABLE_END = '<!-- end of config table -->';

/** A cell's text: a `|` would end the cell. */
const cell = (text: string) => text.replaceAll('|', '\\|');

/** The README's configuration table, one row a setting, in their order (unaligned: prettier aligns it). */
export function settingsTable(): string {
  const rows = Object.entries(SETTINGS).map(([name, setting]) => `| \`${name}\` | ${cell(setting.shown)} | ${cell(setting.about)} |`);
  return ['| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The README with the table between the markers replaced by `table`; refuses a README without them. */
export function withSettingsTable(readme: string, table: string): string {
  const start = readme.indexOf(TABLE_START);
  const end = readme.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`README.md lacks the config table's markers:\n${TABLE_START}\n${TABLE_END}`);
  return `${readme.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${readme.slice(end)}`;
}

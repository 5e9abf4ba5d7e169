import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { settingsTable, withSettingsTable } from '../src/server/config/settings-table.js';

/** The README as it should read: its config table made from the settings, the whole formatted by prettier. */
export async function formattedReadme(readme: string): Promise<string> {
  const filepath = fileURLToPath(new URL('../README.md', import.meta.url));
  const options = await prettier.resolveConfig(filepath);
  return prettier.format(withSettingsTable(readme, settingsTable()), { ...options, filepath });
}

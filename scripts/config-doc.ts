import { fileURLToPath } from 'node:url';
import prettier from 'prettier';
import { CONFIGURATION_DOC, configurationDoc } from '../src/server/config/settings-doc.js';

/** Where docs/configuration.md is, from this checkout. */
export const configurationDocPath = fileURLToPath(new URL(`../${CONFIGURATION_DOC}`, import.meta.url));

/** docs/configuration.md as it should read: made from the settings, formatted as `npm run format` would. */
export async function formattedConfigurationDoc(): Promise<string> {
  const options = await prettier.resolveConfig(configurationDocPath);
  return prettier.format(configurationDoc(), { ...options, filepath: configurationDocPath });
}

import { SETTING_GROUPS, type SettingGroup } from './setting-groups.js';
import { REPLACED_SETTINGS, SETTINGS, type SettingName } from './settings.js';

/** Where `npm run docs:config` writes the page, from the repository's root. */
export const CONFIGURATION_DOC = 'docs/configuration.md';

/** A cell's text: a `|` would end the cell. */
const cell = (text: string) => text.replaceAll('|', '\\|');

const code = (name: string) => `\`${name}\``;

/** The settings of one group, in their order in settings.ts. */
export const settingsOf = (group: SettingGroup) =>
  (Object.keys(SETTINGS) as SettingName[]).filter((name) => SETTINGS[name].group === group);

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes. */
const anchor = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replaceAll(' ', '-');

/** What the server says when it refuses a value: taken from the schema, so the example stays true. */
function refusalOf(name: SettingName, value: string): string {
  const result = SETTINGS[name].schema(name).safeParse(value);
  if (result.success) throw new Error(`${name}=${value} is no longer refused: pick another example for ${CONFIGURATION_DOC}`);
  return result.error.issues[0]!.message;
}

function table(group: SettingGroup): string {
  const rows = settingsOf(group).map((name) => `| ${code(name)} | ${cell(SETTINGS[name].shown)} | ${cell(SETTINGS[name].about)} |`);
  return ['| variable | default | meaning |', '| --- | --- | --- |', ...rows].join('\n');
}

/** The whole of docs/configuration.md, made from the settings (unformatted: prettier aligns the tables). */
export function configurationDoc(): string {
  const groups = Object.keys(SETTING_GROUPS) as SettingGroup[];
  const replaced = Object.entries(REPLACED_SETTINGS).map(([old, replacement]) => `${code(old)} (now ${code(replacement)})`);
  const intro = `# Configuration

<!-- Made by \`npm run docs:config\` from src/server/config/settings.ts: edit the settings there, not here. -->

Every setting is an environment variable of the server process, declared once in
[\`src/server/config/settings.ts\`](../src/server/config/settings.ts) with its type, default and
meaning. This page is made from that file by \`npm run docs:config\` (edit the settings there,
then run it; \`tests/unit/config-doc.test.ts\` fails when the two differ). The server reads no
\`.env\` or configuration file.

Set them in the environment that starts the server: on the command line, or with systemd's
\`Environment=\` or \`EnvironmentFile=\`. Give the tools the same ones: \`npm run admin\`,
\`npm run backup\` and \`npm run migrate-data\` read them too, to find the database and the images.

\`\`\`sh
PUBLIC_URL=https://dorm.example.edu TRUST_PROXY=true REGISTRATION=invite npm start
\`\`\`

Most need not be set. An empty value counts as unset (the default), except for
\`REDIS_KEY_PREFIX\`, where empty means no prefix. The server logs one warning line at start for
each recommended setting it lacks (\`PUBLIC_URL\`, \`TRUST_PROXY\` with an \`https\`
\`PUBLIC_URL\`, \`SMTP_URL\`, \`SERVER_SECRET\` on PostgreSQL), saying what it affects.

**A value the server would misread stops it.** It refuses to start and names every wrong
variable and why, one line each, such as:

\`\`\`
${refusalOf('PORT', '80a')}
${refusalOf('REGISTRATION', 'invites')}
\`\`\`

Variables a release replaced are refused the same way, naming their replacement:
${replaced.join(', ')}.

${Object.keys(SETTINGS).length} settings, in ${groups.length} groups:

${groups.map((group) => `- [${SETTING_GROUPS[group].title}](#${anchor(SETTING_GROUPS[group].title)}): ${settingsOf(group).length}`).join('\n')}
`;
  const sections = groups.map((group) => `## ${SETTING_GROUPS[group].title}\n\n${SETTING_GROUPS[group].about}\n\n${table(group)}\n`);
  return [intro, ...sections].join('\n');
}

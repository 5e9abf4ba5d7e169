/**
 * npm run admin -- <command> [arguments]   (npm run admin -- help lists them)
 *
 * One code path for every command (admin/commands.ts), run wherever the database is: here on
 * PostgreSQL (DATABASE_URL); on the embedded database, inside the server that has it open
 * (DATA_DIR/server.json, over loopback with its token, as npm run backup does), or here when no
 * server runs. Exit codes: 0 done, 1 failed (no such user), 2 bad command line.
 */
import { standaloneAdminContext } from '../admin/admin-context.js';
import { ADMIN_COMMAND_PATH } from '../admin/admin.routes.js';
import { adminHelp, parseCommandLine, runCommandLine, type AdminResult } from '../admin/commands.js';
import { callServer, readServerFile } from '../backup/server-file.js';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrate.js';

const argv = process.argv.slice(2);

async function main(): Promise<AdminResult> {
  // Help and typos are answered before any database is opened.
  const parsed = parseCommandLine(argv);
  if (parsed.kind === 'help') return { code: 0, stdout: `${adminHelp()}\n`, stderr: '' };
  if (parsed.kind === 'usage') return parsed.result;

  const config = loadConfig();
  const server = config.databaseUrl ? undefined : await readServerFile(config.dataDir);
  if (server) {
    const response = await callServer(server, ADMIN_COMMAND_PATH, { argv });
    if (!response.ok)
      return { code: 1, stdout: '', stderr: `The running app refused the command: ${response.status} ${await response.text()}\n` };
    return (await response.json()) as AdminResult;
  }
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    poolSize: config.databasePoolSize,
    prepare: config.databasePreparedStatements,
  });
  try {
    await migrate(database);
    return await runCommandLine(standaloneAdminContext(database, config), argv);
  } finally {
    await database.close();
  }
}

const result = await main().catch((error: unknown): AdminResult => ({
  code: 1,
  stdout: '',
  stderr: `${error instanceof Error ? error.message : String(error)}\n`,
}));
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
process.exitCode = result.code;

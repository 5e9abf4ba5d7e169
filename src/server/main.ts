import { buildApp, openServerDatabase } from './app.js';
import { newAdminToken, removeServerFile, writeServerFile } from './backup/server-file.js';
import { loadConfig } from './config.js';
import { missingRecommendedSettings } from './config/recommended-settings.js';
import { shutdownServer } from './health/shutdown.js';
import type { FastifyInstance } from 'fastify';
import { listenMetrics } from './metrics/metrics-endpoint.js';

const config = loadConfig();
const database = await openServerDatabase(config);
const embedded = database.kind === 'pglite';
const adminToken = embedded ? newAdminToken() : undefined;
const app = await buildApp({ config, database, adminToken });

/** METRICS_PORT's listener, once started. */
let metricsServer: FastifyInstance | undefined = undefined;

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  // /readyz answers 503 at once, requests in flight finish, then the database closes (and PGlite
  // flushes to disk).
  await shutdownServer(app, database);
  await metricsServer?.close();
  if (embedded) await removeServerFile(config.dataDir);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

await app.listen({ port: config.port, host: config.host });
// METRICS_PORT: /metrics without a token, on this machine's loopback only.
metricsServer = app.metrics && config.metricsPort !== undefined ? await listenMetrics(app.metrics, config.metricsPort) : undefined;
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : config.port;
// Tells `npm run backup` that this process owns the embedded database and how to reach it.
if (adminToken) await writeServerFile(config.dataDir, { pid: process.pid, port, token: adminToken });
app.log.info(`${config.appName} is running at http://localhost:${port} (${database.kind})`);
// One line for each recommended setting left unset, saying what it affects.
for (const { setting, message } of missingRecommendedSettings(config)) app.log.warn({ setting }, message);

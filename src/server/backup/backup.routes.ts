import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import path from 'node:path';
import { z } from 'zod';
import type { Database } from '../db/database.js';
import { UNSHARED_ROUTES } from '../http/unshared-routes.js';
import type { PausableDeletes } from '../storage/pausable-deletes.js';
import { createBackup, defaultBackupDir } from './backup.js';

/**
 * Used by `npm run backup` on the same machine. Only from loopback and only with the token in
 * DATA_DIR/server.json (access local-admin, auth/access.ts); to anyone else it does not exist.
 */
export const backupRoutes =
  (options: { database: Database; storage: PausableDeletes; dataDir: string; token: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: UNSHARED_ROUTES.backup.method,
      url: UNSHARED_ROUTES.backup.path,
      config: { access: { kind: 'local-admin', token: options.token } },
      schema: {
        hide: true,
        body: z.strictObject({ out: z.string().max(1000).optional() }).optional(),
      },
      handler: async (request) =>
        createBackup({
          database: options.database,
          storage: options.storage,
          mediaDir: path.join(options.dataDir, 'media'),
          outDir: path.resolve(request.body?.out ?? defaultBackupDir(options.dataDir)),
        }),
    });
  };

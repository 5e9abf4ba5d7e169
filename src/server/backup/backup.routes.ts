import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import path from 'node:path';
import { z } from 'zod';
import type { Database } from '../db/database.js';
import { requireLocalAdmin } from '../http/admin-caller.js';
import type { PausableDeletes } from '../storage/pausable-deletes.js';
import { createBackup, defaultBackupDir } from './backup.js';

/**
 * POST /api/admin/backup: used by `npm run backup` on the same machine. Only from loopback
 * and only with the token in DATA_DIR/server.json; to anyone else it does not exist.
 */
export const backupRoutes =
  (options: { database: Database; storage: PausableDeletes; dataDir: string; token: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/admin/backup',
      {
        schema: {
          hide: true,
          body: z.strictObject({ out: z.string().max(1000).optional() }).optional(),
        },
      },
      async (request) => {
        requireLocalAdmin(request, options.token);
        return createBackup({
          database: options.database,
          storage: options.storage,
          mediaDir: path.join(options.dataDir, 'media'),
          outDir: path.resolve(request.body?.out ?? defaultBackupDir(options.dataDir)),
        });
      },
    );
  };

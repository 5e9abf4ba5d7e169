import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { logSecurityEvent } from '../http/security-log.js';
import { UNSHARED_ROUTES } from '../http/unshared-routes.js';
import type { AdminContext } from './admin-command.js';
import { runCommandLine } from './commands.js';

/** The path `npm run admin` posts its command line to, while the app owns the embedded database. */
export const ADMIN_COMMAND_PATH = UNSHARED_ROUTES.adminCommand.path;

/**
 * `npm run admin` on the same machine, while this server owns the embedded database, runs its
 * command here, against this server's own database and caches. Checked before the body is even
 * read (access local-admin, auth/access.ts): to anyone but a loopback caller holding the token
 * of DATA_DIR/server.json it does not exist.
 */
export const adminRoutes =
  (options: { context: AdminContext; token: string }): FastifyPluginAsyncZod =>
  async (app) => {
    app.route({
      method: UNSHARED_ROUTES.adminCommand.method,
      url: ADMIN_COMMAND_PATH,
      config: { access: { kind: 'local-admin', token: options.token } },
      schema: {
        hide: true,
        body: z.strictObject({ argv: z.array(z.string().max(1000)).max(100) }),
        response: {
          200: z.object({ code: z.union([z.literal(0), z.literal(1), z.literal(2)]), stdout: z.string(), stderr: z.string() }),
        },
      },
      handler: async (request) => {
        // The command, never its output: a reset link is for the operator's terminal only.
        logSecurityEvent(request, 'ran an admin command', { command: request.body.argv[0] });
        return runCommandLine(options.context, request.body.argv);
      },
    });
  };

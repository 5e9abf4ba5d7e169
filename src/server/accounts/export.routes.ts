import type { FastifyError, FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { accountApi } from '../../shared/api/delete-account.js';
import { accountOf } from '../auth/session-account.js';
import { AppError } from '../http/app-error.js';
import { logRefusal } from '../http/error-handler.js';
import { registerRoute } from '../http/register-route.js';
import { logSecurityEvent } from '../http/security-log.js';
import { destroyWhenStalled } from '../http/stalled-response.js';
import type { Clock } from '../clock.js';
import type { DataExport } from './export.service.js';

/** The Download My Data page (client/paths.ts downloadData), where a refused download is explained. */
const DOWNLOAD_PAGE = '/settings/data';

/**
 * A refusal reaches a navigation, not a script: when the browser says the request is one
 * (Sec-Fetch-Mode: navigate), it is sent back to the page with the error's code, which the page
 * shows; anything else (and any failure that is not a refusal) gets the app's usual answer. A
 * route error handler, so that the access hook's refusal (signed out) is sent back too.
 */
const refusalsToThePage = (app: FastifyInstance) =>
  function (this: FastifyInstance, error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
    if (!(error instanceof AppError) || request.headers['sec-fetch-mode'] !== 'navigate') {
      app.errorHandler.call(this, error, request, reply);
      return;
    }
    logRefusal(request, error);
    void reply.redirect(`${DOWNLOAD_PAGE}?error=${error.code}`, 303);
  };

/**
 * Not in the spec (issue 16): Settings → Security → Download My Data.
 *
 * The page's button is a plain link: the browser downloads the ZIP itself, streaming it to disk
 * with its own progress, which a fetch() could not do without holding the whole ZIP in memory.
 *
 * A reader that stops reading is cut off after `stallMs` (EXPORT_STALL_MS) without taking
 * anything: otherwise two idle connections would hold both export slots for as long as they stay
 * open, and every other download would be refused. The stall is timed on the app's `clock`.
 */
export const exportRoutes =
  (exports: DataExport, stallMs: number, clock: Clock): FastifyPluginAsync =>
  async (app) => {
    registerRoute(
      app,
      accountApi.exportData,
      async ({ request, reply, viewer }) => {
        // Stop reading as soon as the reader is gone (a closed tab, a cancelled download). The
        // reader may be gone already: a download cancelled while the session was looked up ran
        // its 'close' before this handler, and listening for it would wait for ever.
        const reader = new AbortController();
        const gone = () => {
          if (!reply.raw.writableFinished) reader.abort();
        };
        if (reply.raw.destroyed) gone();
        else reply.raw.on('close', gone);
        // A costly read another site's page could start with the victim's cookie: only our own
        // pages (and a typed address) may.
        if (request.crossSite) throw new AppError(403, 'CROSS_SITE_REQUEST');
        const started = await exports.start(accountOf(request), reader.signal);
        logSecurityEvent(request, 'downloaded data', { userId: viewer.id });
        destroyWhenStalled(reply.raw, stallMs, clock);
        return reply
          .header('content-type', 'application/zip')
          .header('content-disposition', `attachment; filename="${started.fileName}"`)
          .header('cache-control', 'no-store')
          .header('x-content-type-options', 'nosniff')
          .send(started.stream);
      },
      {
        // A ZIP's photos are compressed already, and its text deflated inside it.
        compress: false,
        // A HEAD would make (and count) a whole ZIP only for its body to be thrown away.
        exposeHeadRoute: false,
        errorHandler: refusalsToThePage(app),
      },
    );
  };

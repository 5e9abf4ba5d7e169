import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { ERRORS } from '../../shared/errors.js';
import type { RegistrationSettings } from '../../shared/registration.js';
import { escapeHtml } from './escape-html.js';
import { isSecretPage } from './secret-urls.js';
import { isApiUrl, isMediaUrl, isUnder } from './url-space.js';

/** What the server tells the client in index.html (src/client/server-meta.ts reads it). */
export interface ClientSettings {
  appName: string;
  /** Mail is on (SMTP_URL): the sign-in screen offers "Forgot password?". */
  forgotPassword: boolean;
  /** Who may sign up: the create-account form shows the Invite code field, or the allowed domains. */
  registration: RegistrationSettings;
}

/**
 * Files of a build that no browser asks for by name, so they get no route. index.html as built
 * still holds its placeholders (and an older build compressed it too): asked for by name, it is
 * the filled-in page of the fallback, like every other page route. Source maps would publish
 * the client's source with its comments (the build makes none; vite.config.ts).
 */
const UNSERVED_FILES = ['index.html', 'index.html.*', '**/*.map', '**/*.map.*'];

/**
 * Serves the built React app: hashed assets cached forever, and index.html (with the product
 * name filled in) for every other GET so deep links work on reload. API, media and asset paths
 * that match nothing get a JSON 404 instead: a chunk an older build named (a tab opened before a
 * deploy) must fail as missing, not load a page as if it were a script.
 */
export async function registerClientApp(app: FastifyInstance, clientDir: string, settings: ClientSettings) {
  const indexFile = path.join(clientDir, 'index.html');
  const indexHtml = fs.existsSync(indexFile)
    ? fs
        .readFileSync(indexFile, 'utf8')
        .replaceAll('__APP_NAME__', escapeHtml(settings.appName))
        .replaceAll('__FORGOT_PASSWORD__', settings.forgotPassword ? 'on' : 'off')
        .replaceAll('__REGISTRATION__', settings.registration.mode)
        .replaceAll('__REGISTRATION_EMAIL_DOMAINS__', escapeHtml(settings.registration.emailDomains.join(',')))
    : undefined;

  if (indexHtml) {
    await app.register(fastifyStatic, {
      root: clientDir,
      index: false,
      // The build writes .br and .gz beside each asset (scripts/precompress.mjs).
      preCompressed: true,
      // Routes for the files present at start-up; the SPA fallback below handles the rest.
      wildcard: false,
      globIgnore: UNSERVED_FILES,
      setHeaders(res, filePath) {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('cache-control', hashed ? 'public, max-age=31536000, immutable' : 'public, max-age=3600');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    const isFile = isApiUrl(request.url) || isMediaUrl(request.url) || isUnder(request.url, '/assets');
    if (!isPage || isFile || !indexHtml) {
      return reply.code(404).send({ code: 'NOT_FOUND', message: ERRORS.NOT_FOUND });
    }
    // A secret in the URL (a reset link): no Referer at all leaves the page, not even the origin.
    if (isSecretPage(request.url)) reply.header('referrer-policy', 'no-referrer');
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(indexHtml);
  });
}

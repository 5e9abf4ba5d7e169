import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API } from '../../shared/api/paths.js';
import type { ImageSet, PostPage, PostResponse } from '../../shared/api/posts.js';
import { EAGER_CARDS, widestPhoneFor } from '../../shared/grid-images.js';
import { POST_IMAGE_SIZES, postImageSrcSet, postIdOfPage } from '../../shared/post-page.js';
import { ERRORS } from '../../shared/errors.js';
import type { RegistrationSettings } from '../../shared/registration.js';
import { askSelf } from './ask-self.js';
import { escapeHtml } from './escape-html.js';
import { linkPreview } from './link-preview.js';
import { loadPageModules } from './page-modules.js';
import { isSecretPage } from './secret-urls.js';
import { isApiUrl, isMediaUrl, isUnder } from './url-space.js';

/** What the server tells the client in index.html (src/client/server-meta.ts reads it). */
export interface ClientSettings {
  appName: string;
  /** Mail is on (SMTP_URL): the sign-in screen offers "Forgot password?". */
  forgotPassword: boolean;
  /** Who may sign up: the create-account form shows the Invite code field, or the allowed domains. */
  registration: RegistrationSettings;
  /** Single sign-on's name (OIDC_NAME) when it is set up: the sign-in screen's Continue with {name}. */
  sso: string | null;
  /** SSO_ONLY: the sign-in screen leads with single sign-on, the password form behind a link (for admins). */
  ssoOnly: boolean;
  /** PUBLIC_URL: the origin of link previews' addresses (else the request's own). */
  publicUrl: string | undefined;
}

/**
 * Files of a build that the static files' routes do not serve. index.html as built
 * still holds its placeholders (and an older build compressed it too): asked for by name, it is
 * the filled-in page of the fallback, like every other page route. Source maps would publish
 * the client's source with its comments (the build makes none; vite.config.ts), and the build's
 * manifest its source paths (page-modules.ts reads it). The service worker has a route of its
 * own (registerServiceWorker).
 */
const UNSERVED_FILES = ['index.html', 'index.html.*', '**/*.map', '**/*.map.*', '.vite/**', 'sw.js', 'sw.js.*'];

/**
 * The service worker (src/client/sw.ts as built, issue 30): at the root, so its scope is the whole
 * app, and under a name that never changes, so a browser checking for a new version must not be
 * answered from a cache (an asset's hour would keep an old worker running that long). Its own
 * route: the static files' compressed variants would be sent as application/javascript.
 */
function registerServiceWorker(app: FastifyInstance, clientDir: string) {
  const file = path.join(clientDir, 'sw.js');
  if (!fs.existsSync(file)) return;
  const script = fs.readFileSync(file);
  app.get('/sw.js', async (_request, reply) =>
    reply.header('cache-control', 'no-cache').type('text/javascript; charset=utf-8').send(script),
  );
}

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
        // Functions, not strings: a '$$' or '$`' in a setting is text, not a replacement pattern.
        .replaceAll('__APP_NAME__', () => escapeHtml(settings.appName))
        .replaceAll('__FORGOT_PASSWORD__', () => (settings.forgotPassword ? 'on' : 'off'))
        .replaceAll('__REGISTRATION__', () => settings.registration.mode)
        .replaceAll('__REGISTRATION_EMAIL_DOMAINS__', () => escapeHtml(settings.registration.emailDomains.join(',')))
        .replaceAll('__SSO__', () => escapeHtml(settings.sso ?? ''))
        .replaceAll('__SSO_ONLY__', () => (settings.ssoOnly ? 'on' : 'off'))
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

  if (indexHtml) registerServiceWorker(app, clientDir);

  const pageModules = indexHtml ? loadPageModules(clientDir) : () => '';

  app.setNotFoundHandler(async (request, reply) => {
    const isPage = request.method === 'GET' || request.method === 'HEAD';
    const isFile = isApiUrl(request.url) || isMediaUrl(request.url) || isUnder(request.url, '/assets');
    if (!isPage || isFile || !indexHtml) {
      return reply.code(404).send({ code: 'NOT_FOUND', message: ERRORS.NOT_FOUND });
    }
    // A secret in the URL (a reset link): no Referer at all leaves the page, not even the origin.
    if (isSecretPage(request.url)) reply.header('referrer-policy', 'no-referrer');
    reply.type('text/html; charset=utf-8');
    if (request.method === 'GET') {
      const [data, preview] = await Promise.all([
        firstView(request, reply, pageModules),
        linkPreview(request, settings.appName, settings.publicUrl),
      ]);
      // A function, not a string: a '$&' or "$'" in someone's description is text, not a pattern.
      const page = indexHtml.replace('</head>', () => `${preview}${data}</head>`);
      // The viewer's own data: never stored by a cache, like every API answer.
      if (data) return sendPage(request, reply.header('cache-control', 'no-store'), page);
      return reply.header('cache-control', 'no-cache').send(page);
    }
    return reply.header('cache-control', 'no-cache').send(indexHtml);
  });
}

const gzip = promisify(zlib.gzip);

/**
 * A page with data in it (~60 KB with a feed page), gzipped for a browser that takes it: the
 * not-found handler is no route, so @fastify/compress does not see it.
 */
async function sendPage(request: FastifyRequest, reply: FastifyReply, html: string) {
  reply.header('vary', 'accept-encoding');
  if (!/\bgzip\b/.test(String(request.headers['accept-encoding'] ?? ''))) return reply.send(html);
  return reply.header('content-encoding', 'gzip').send(await gzip(html));
}

/** The home feed's URL, with or without a query. */
const isHomePage = (url: string) => url === '/' || url.startsWith('/?');

/** The id of the data block the client reads (src/client/first-view.ts). */
export const FIRST_VIEW_ID = 'first-view';

/**
 * Issue 28: a page arrives with its first view, so a phone renders the screen without waiting
 * for requests made after its scripts: who is signed in (`me`, the answer of GET /api/me, or
 * null: nobody), on the home page the feed's first page (`feed`, of GET /api/posts), on a post's
 * page the post (`post`, of GET /api/posts/:id); and preloads of what the screen shows first,
 * which then load beside the boot script rather than after it: the screen's own chunk
 * (page-modules.ts), a post's photo, the home page's first cards' photos. Asked of this app itself with the page's own
 * cookie: the same routes, access rules and read path as the API (one rule for what a viewer may
 * see). In a data block, which is never run (the page policy allows no inline script), with
 * every '<' escaped so no text in it can end the block.
 */
async function firstView(request: FastifyRequest, reply: FastifyReply, pageModules: PageModules): Promise<string> {
  const url = request.url;
  const pathname = url.split('?')[0]!;
  const signedOut = () => pageModules(pathname, false) + dataBlock('{"me":null}');
  const { cookie } = request.headers;
  // No cookie, no session: the sign-in screen needs no request to know it.
  if (!cookie) return signedOut();
  const ask = (url: string) => askSelf(request, url, cookie);
  const me = await ask(API.me);
  // A renewed session's cookie, or a tossed one cleared, reaches the browser as the API's would.
  const setCookie = me.headers['set-cookie'];
  if (setCookie) reply.header('set-cookie', setCookie);
  if (me.statusCode !== 200) return me.statusCode === 401 ? signedOut() : '';
  const parts = [`"me":${me.body}`];
  let preload = pageModules(pathname, true);
  const postId = postIdOfPage(pathname);
  if (isHomePage(url)) {
    const feed = await ask(API.posts);
    if (feed.statusCode === 200) {
      parts.push(`"feed":${feed.body}`);
      preload += feed
        .json<PostPage>()
        .posts.slice(0, EAGER_CARDS)
        .map((card) => cardPhotoPreload(card.image))
        .join('');
    }
  } else if (postId !== undefined) {
    const post = await ask(API.post(postId));
    if (post.statusCode === 200) {
      parts.push(`"post":${post.body}`);
      preload += photoPreload(post.json<PostResponse>().post.image);
    }
  }
  return preload + dataBlock(`{${parts.join(',')}}`);
}

type PageModules = ReturnType<typeof loadPageModules>;

const dataBlock = (json: string) => `<script type="application/json" id="${FIRST_VIEW_ID}">${json.replace(/</g, '\\u003c')}</script>`;

/**
 * A card's photo on a phone's screen, where the card chooses its smallest variant
 * (shared/grid-images.ts); a wider screen, whose choice depends on its density, gets none.
 * At the browser's own priority for images, after the boot script and styles: nothing shows
 * before the script renders the grid, and at high priority eight photos took the slow network
 * from the script (home feed LCP 2.52 s with four, 2.95 s with eight; 2.45–2.49 s with eight
 * at their own priority: Lighthouse's phone, 2026-11-26).
 */
function cardPhotoPreload(image: ImageSet): string {
  const smallest = image.variants[0];
  if (!smallest) return '';
  return `<link rel="preload" as="image" href="${escapeHtml(smallest.src)}" media="(max-width: ${widestPhoneFor(smallest.width)}px)">`;
}

/** The post page's photo, asked for as the page's <img> will ask (shared/post-page.ts): at high priority, before the scripts run. */
const photoPreload = (image: ImageSet) =>
  `<link rel="preload" as="image" href="${escapeHtml(image.full)}" imagesrcset="${escapeHtml(postImageSrcSet(image))}" imagesizes="${POST_IMAGE_SIZES}" fetchpriority="high">`;

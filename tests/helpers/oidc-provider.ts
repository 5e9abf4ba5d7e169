import { generateKeyPair, randomBytes, randomUUID, sign, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import Provider, { type Adapter, type AdapterPayload, type Configuration, type KoaContextWithOIDC } from 'oidc-provider';

/**
 * A real OpenID Connect provider (the `oidc-provider` package, which is certified), in this
 * process, on a loopback port over plain http: the app's single sign-on crosses real HTTP to it,
 * with real signed ID tokens, PKCE, state and nonce, as it would with a production provider.
 *
 * One client is registered: authorization code flow, PKCE S256 required, a client secret sent
 * either way (client_secret_basic or client_secret_post: oidc-provider v9 takes both from a client
 * registered with either). Scopes `openid email profile`. Consent is given without asking
 * (loadExistingGrant below), so the only interaction is the login, which `signIn` goes through
 * over HTTP as a user's browser would.
 */

export interface TestOidcAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
  name?: string;
}

/** The provider's signing key, so a test can forge or alter ID tokens (e.g. with `jose`). */
export interface TestOidcSigningKey {
  kid: string;
  alg: 'RS256';
  privateKey: KeyObject;
  /** The private JWK, as given to the provider (with kid, alg and use). */
  privateJwk: JsonWebKey;
  /** The public part, as the provider publishes it at its jwks_uri. */
  publicJwk: JsonWebKey;
}

export interface TestOidcProvider {
  /** e.g. http://127.0.0.1:<port> (no trailing slash). */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Accounts the provider knows, by sub; tests add/remove them. Read at every sign-in and token request. */
  accounts: Map<string, TestOidcAccount>;
  /** The oidc-provider instance (a Koa app), for tests that need more than this helper gives. */
  provider: Provider;
  /** The key the provider signs ID tokens with. */
  signingKey: TestOidcSigningKey;
  /**
   * Plays the user at the provider, over HTTP (no browser): GET the authorization URL the app
   * redirected to, sign in as `sub` through the provider's own interaction (login; consent is
   * implied), and return the URL the provider finally redirects back to (the app's redirect_uri
   * with code and state), WITHOUT requesting it. Throws a TestOidcSignInError if the provider
   * answers an error instead (an error page, a refused login, or an error redirect to the
   * redirect_uri: then the error's `redirect` is that URL); fetch's TypeError if it is stopped.
   */
  signIn(authorizationUrl: string | URL, sub: string): Promise<URL>;
  /** Stops answering (closes the port and every open connection), to test "provider down". Idempotent. */
  stop(): Promise<void>;
  /** Listens again on the same port, with the same state (keys, sessions, codes). Idempotent. */
  restart(): Promise<void>;
  /** Stops for good. */
  close(): Promise<void>;
}

/** A successful answer of the token endpoint, as `tamper` sees it before it is sent. */
export interface TestOidcTokenAnswer {
  /** The account signed in: the ID token's sub. */
  sub: string;
  /** The ID token, decoded (the provider has just signed it). */
  idToken: { header: Record<string, unknown>; claims: Record<string, unknown> };
  /** The answer's JSON body (access_token, id_token, token_type, expires_in, scope). */
  body: Record<string, unknown>;
  /** An ID token with these claims under the ID token's own header, signed RS256 by `key` (default: the provider's key). */
  resign(claims: Record<string, unknown>, key?: KeyObject): string;
}

/** See StartOidcProviderOptions.tamper. */
export type TestOidcTamper = (answer: TestOidcTokenAnswer) => Record<string, unknown> | 'hang-up' | undefined;

export interface StartOidcProviderOptions {
  redirectUris: string[];
  clientId?: string;
  clientSecret?: string;
  /** Default 0: a free port. restart() listens on the same one. */
  port?: number;
  accounts?: TestOidcAccount[];
  /**
   * Makes the token endpoint misbehave for some sign-ins (a forged or expired ID token, another
   * issuer's, the provider going down mid-sign-in) while it answers every other as it should: a
   * provider shared by tests running at once (the e2e run's) can be neither stopped nor patched
   * for one of them. Called with each successful answer that carries an ID token; returns the
   * body to send instead, `'hang-up'` to cut the connection without an answer (the code is spent
   * by then, as when a provider dies after its work), or undefined to send the answer unchanged.
   */
  tamper?: TestOidcTamper;
}

/** What signIn throws when the provider answers with an error rather than a code. */
export class TestOidcSignInError extends Error {
  constructor(
    message: string,
    /** The error redirect to the redirect_uri, when the provider answered so (error=… in it). */
    readonly redirect?: URL,
  ) {
    super(message);
    this.name = 'TestOidcSignInError';
  }
}

const SCOPES = ['openid', 'email', 'profile'];
const CLAIMS = { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username', 'name'] };
const ALL_CLAIMS = Object.values(CLAIMS).flat();
const INTERACTION_PATH = /^\/interaction\/([\w-]+)$/;

/**
 * Storage for the provider's artifacts (sessions, interactions, codes, tokens, grants), one per
 * provider. oidc-provider's own in-memory adapter would do, but it warns on the console at every
 * start that it is for development only; this is the same thing, without the warning.
 */
interface Store {
  entries: Map<string, { payload: AdapterPayload; expiresAt: number }>;
  sessionByUid: Map<string, string>;
  byUserCode: Map<string, string>;
  /** grantId → keys of the codes and tokens issued under it (revoked together, e.g. on code reuse). */
  byGrant: Map<string, Set<string>>;
}

const GRANTABLE = new Set(['AccessToken', 'AuthorizationCode', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest']);

function adapterFactory(store: Store): (model: string) => Adapter {
  return (model) => {
    const key = (id: string) => `${model}:${id}`;
    const read = (id: string | undefined): AdapterPayload | undefined => {
      if (id === undefined) return undefined;
      const entry = store.entries.get(key(id));
      if (!entry) return undefined;
      if (entry.expiresAt <= Date.now()) {
        store.entries.delete(key(id));
        return undefined;
      }
      return structuredClone(entry.payload);
    };
    return {
      async upsert(id, payload, expiresIn) {
        const expiresAt = typeof expiresIn === 'number' ? Date.now() + expiresIn * 1000 : Infinity;
        store.entries.set(key(id), { payload: structuredClone(payload), expiresAt });
        if (model === 'Session' && payload.uid) store.sessionByUid.set(payload.uid, id);
        if (payload.userCode) store.byUserCode.set(payload.userCode, id);
        if (GRANTABLE.has(model) && payload.grantId) {
          const members = store.byGrant.get(payload.grantId) ?? new Set();
          members.add(key(id));
          store.byGrant.set(payload.grantId, members);
        }
      },
      async find(id) {
        return read(id);
      },
      async findByUid(uid) {
        return read(store.sessionByUid.get(uid));
      },
      async findByUserCode(userCode) {
        return read(store.byUserCode.get(userCode));
      },
      async consume(id) {
        const entry = store.entries.get(key(id));
        if (entry) entry.payload.consumed = Math.floor(Date.now() / 1000);
      },
      async destroy(id) {
        store.entries.delete(key(id));
      },
      async revokeByGrantId(grantId) {
        for (const member of store.byGrant.get(grantId) ?? []) store.entries.delete(member);
        store.byGrant.delete(grantId);
      },
    };
  };
}

async function readForm(req: IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The provider's login page, at its default interactions.url (/interaction/:uid): GET shows a
 * form asking for the account (no password: this is a test provider), POST signs in as the
 * account named in `login` if the provider knows it, then sends the browser back to the
 * authorization endpoint (oidc-provider's interactionResult). A consent prompt (there is one only
 * when the request says prompt=consent: loadExistingGrant grants the rest) is answered by
 * granting all the scopes and claims.
 * Mounted with provider.use, which oidc-provider puts before its own routes.
 */
function interactionRoutes(provider: Provider, accounts: Map<string, TestOidcAccount>) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => {
    const match = INTERACTION_PATH.exec(ctx.path);
    if (!match || (ctx.method !== 'GET' && ctx.method !== 'POST')) return next();
    ctx.set('Cache-Control', 'no-store');
    let interaction;
    try {
      interaction = await provider.interactionDetails(ctx.req, ctx.res);
    } catch (error) {
      ctx.status = 400;
      ctx.type = 'text';
      ctx.body = `interaction not found: ${(error as Error).message}`;
      return;
    }
    if (interaction.uid !== match[1]) {
      ctx.status = 400;
      ctx.type = 'text';
      ctx.body = 'interaction not found: the interaction cookie is for another interaction';
      return;
    }
    const prompt = interaction.prompt.name;

    if (ctx.method === 'GET') {
      ctx.type = 'html';
      ctx.body =
        `<!doctype html><title>Test provider: ${escapeHtml(prompt)}</title>` +
        `<form method="post" action="${escapeHtml(ctx.path)}"><input type="hidden" name="prompt" value="${escapeHtml(prompt)}">` +
        `<label>Account <input name="login" autofocus></label><button>Continue</button></form>`;
      return;
    }

    const form = await readForm(ctx.req);
    let returnTo: string;
    if (prompt === 'login') {
      const sub = form.get('login') ?? '';
      if (!accounts.has(sub)) {
        // What a real provider does with a wrong login: says so, and stays on its page.
        ctx.status = 401;
        ctx.type = 'text';
        ctx.body = `no such account: ${sub}`;
        return;
      }
      returnTo = await provider.interactionResult(ctx.req, ctx.res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
    } else if (prompt === 'consent') {
      const accountId = interaction.session?.accountId;
      const clientId = interaction.params.client_id;
      if (!accountId || typeof clientId !== 'string') ctx.throw(400, 'consent without a session or a client');
      const grant = interaction.grantId
        ? ((await provider.Grant.find(interaction.grantId)) ?? new provider.Grant({ accountId, clientId }))
        : new provider.Grant({ accountId, clientId });
      grant.addOIDCScope(SCOPES);
      grant.addOIDCClaims(ALL_CLAIMS);
      returnTo = await provider.interactionResult(ctx.req, ctx.res, { consent: { grantId: await grant.save() } });
    } else {
      ctx.throw(501, `prompt ${prompt} is not implemented by the test provider`);
    }
    ctx.redirect(returnTo);
    ctx.status = 303;
  };
}

const jwtPart = (json: object) => Buffer.from(JSON.stringify(json)).toString('base64url');
const parseJwtPart = (part: string | undefined) =>
  JSON.parse(Buffer.from(part ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;

/** A compact JWS, RS256 (the provider's ID token algorithm), of `header` (its alg set so) and `claims`. */
function signJwt(header: Record<string, unknown>, claims: Record<string, unknown>, key: KeyObject): string {
  const input = `${jwtPart({ ...header, alg: 'RS256' })}.${jwtPart(claims)}`;
  return `${input}.${sign('sha256', Buffer.from(input), key).toString('base64url')}`;
}

/**
 * `tamper` at the token endpoint: a middleware around the provider's own routes, which changes the
 * token endpoint's answer (ctx.body, still an object there) after the provider has made it.
 */
function tamperRoute(tamper: TestOidcTamper, signingKey: KeyObject) {
  return async (ctx: KoaContextWithOIDC, next: () => Promise<unknown>) => {
    await next();
    const body = ctx.body as Record<string, unknown> | undefined;
    if (ctx.oidc?.route !== 'token' || ctx.status !== 200 || typeof body?.id_token !== 'string') return;
    const [header, claims] = body.id_token.split('.');
    const idToken = { header: parseJwtPart(header), claims: parseJwtPart(claims) };
    const answer = tamper({
      sub: String(idToken.claims.sub),
      idToken,
      body: structuredClone(body),
      resign: (changed, key = signingKey) => signJwt(idToken.header, changed, key),
    });
    if (answer === 'hang-up') {
      // No answer at all: Koa sends nothing, and the client sees the connection closed under it.
      ctx.respond = false;
      ctx.req.socket.destroy();
    } else if (answer) {
      ctx.body = answer;
    }
  };
}

function parseSetCookie(header: string): { name: string; value: string; path: string; expired: boolean } {
  const [pair = '', ...attributes] = header.split(';');
  const eq = pair.indexOf('=');
  const name = pair.slice(0, eq).trim();
  const value = pair.slice(eq + 1).trim();
  let path = '/';
  let expired = false;
  for (const attribute of attributes) {
    const [rawKey = '', ...rest] = attribute.split('=');
    const key = rawKey.trim().toLowerCase();
    const val = rest.join('=').trim();
    if (key === 'path' && val) path = val;
    if (key === 'expires' && Date.parse(val) <= Date.now()) expired = true;
    if (key === 'max-age' && Number(val) <= 0) expired = true;
  }
  return { name, value, path, expired };
}

/** A browser's cookie jar, enough for one host: cookies by name and path, sent where their path matches. */
class CookieJar {
  readonly #cookies = new Map<string, { name: string; value: string; path: string }>();

  store(response: Response): void {
    for (const header of response.headers.getSetCookie()) {
      const cookie = parseSetCookie(header);
      const id = `${cookie.name}\n${cookie.path}`;
      if (cookie.expired) this.#cookies.delete(id);
      else this.#cookies.set(id, cookie);
    }
  }

  headerFor(url: URL): string {
    return [...this.#cookies.values()]
      .filter(({ path }) => url.pathname === path || url.pathname.startsWith(path.endsWith('/') ? path : `${path}/`))
      .map(({ name, value }) => `${name}=${value}`)
      .join('; ');
  }
}

function sameEndpoint(a: URL, b: URL): boolean {
  return a.origin === b.origin && a.pathname === b.pathname;
}

async function listen(server: Server, port: number): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  return (server.address() as AddressInfo).port;
}

export async function startOidcProvider(options: StartOidcProviderOptions): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'dormboard-test';
  const clientSecret = options.clientSecret ?? randomBytes(24).toString('base64url');
  const accounts = new Map((options.accounts ?? []).map((account) => [account.sub, account]));
  const redirectUris = options.redirectUris.map((uri) => new URL(uri));

  // Real keys, made for this provider: an RS256 key pair (the default ID token algorithm).
  const { privateKey, publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const kid = randomUUID();
  const privateJwk: JsonWebKey = { ...privateKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };
  const publicJwk: JsonWebKey = { ...publicKey.export({ format: 'jwk' }), kid, alg: 'RS256', use: 'sig' };

  // The port comes first (the issuer names it), then the provider that answers on it.
  let handler: (req: IncomingMessage, res: ServerResponse) => unknown = (_req, res) => res.writeHead(503).end();
  const serve = (req: IncomingMessage, res: ServerResponse) => {
    // One connection per request: no idle keep-alive connection sits in a client's pool, so once
    // stopped, the provider is refused (ECONNREFUSED) at the next request, not at some later one.
    res.setHeader('Connection', 'close');
    handler(req, res);
  };
  let server: Server | undefined = createServer(serve);
  const port = await listen(server, options.port ?? 0);
  const issuer = `http://127.0.0.1:${port}`;

  const configuration: Configuration = {
    adapter: adapterFactory({ entries: new Map(), sessionByUid: new Map(), byUserCode: new Map(), byGrant: new Map() }),
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        // Registered as basic (the OpenID Connect default); v9 takes client_secret_post from it too.
        token_endpoint_auth_method: 'client_secret_basic',
        id_token_signed_response_alg: 'RS256',
      },
    ],
    jwks: { keys: [privateJwk] },
    // Signs the provider's cookies (session, interaction); without keys they would go unsigned.
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    scopes: SCOPES,
    claims: CLAIMS,
    // By default (true) an ID token issued with an access token carries only sub and the
    // protocol claims, the scopes' claims being for the userinfo endpoint. The app reads them
    // from the ID token, as most providers (Google, Microsoft, Keycloak…) put them there.
    conformIdTokenClaims: false,
    // PKCE for this confidential client too (by default only public clients must). oidc-provider
    // v9 knows only S256 (plain is refused), so this is "S256 required".
    pkce: { required: () => true },
    features: {
      // v9 still has the quick-start login/consent pages, but they warn on the console at every
      // start, and take any login whether or not the account exists; interactionRoutes replaces them.
      devInteractions: { enabled: false },
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    findAccount: (_ctx, sub) => {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return { accountId: sub, claims: () => ({ ...accounts.get(sub), sub }) };
    },
    // Consent without asking: every authorization of the client, once the user is signed in,
    // finds a grant of all the scopes and claims (its own grant from the session, or a new one).
    loadExistingGrant: async (ctx) => {
      const { client, session } = ctx.oidc;
      if (!client || !session?.accountId) return undefined;
      const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId);
      const grant =
        (grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined) ??
        new ctx.oidc.provider.Grant({ clientId: client.clientId, accountId: session.accountId });
      grant.addOIDCScope(SCOPES);
      grant.addOIDCClaims(ALL_CLAIMS);
      await grant.save();
      return grant;
    },
    // Given explicitly: the defaults print a notice at first use ("you SHOULD change it"). Long
    // enough that no test runs into them, however slow the machine.
    ttl: { AccessToken: 3600, AuthorizationCode: 600, IdToken: 3600, Interaction: 3600, Session: 3600, Grant: 3600 },
    // Plain text, so signIn can say what went wrong (the default page is HTML and notes its own use).
    renderError: (ctx, out) => {
      ctx.type = 'text';
      ctx.body = Object.entries(out)
        .map(([key, value]) => `${key}: ${String(value)}`)
        .join('\n');
    },
  };

  // Plain http on loopback works without more: oidc-provider marks its cookies Secure only when
  // the request came over https (Koa's ctx.secure), and accepts http redirect_uris for
  // code-flow web clients. `proxy` stays off: nothing stands in front, and trusting
  // X-Forwarded-Proto would let a request claim https and get Secure cookies over http.
  const provider = new Provider(issuer, configuration);
  provider.use(interactionRoutes(provider, accounts));
  if (options.tamper) provider.use(tamperRoute(options.tamper, privateKey));
  handler = provider.callback();

  let closed = false;

  async function stop(): Promise<void> {
    const running = server;
    if (!running) return;
    server = undefined;
    await new Promise<void>((resolve, reject) => {
      running.close((error) => (error ? reject(error) : resolve()));
      // A request in flight is cut too, as when a provider's host goes away.
      running.closeAllConnections();
    });
  }

  async function restart(): Promise<void> {
    if (closed) throw new Error('the test OIDC provider is closed');
    if (server) return;
    const next = createServer(serve);
    await listen(next, port);
    server = next;
  }

  async function signIn(authorizationUrl: string | URL, sub: string): Promise<URL> {
    const jar = new CookieJar();
    const issuerOrigin = new URL(issuer).origin;
    let url = new URL(authorizationUrl);
    if (url.origin !== issuerOrigin) throw new Error(`signIn: ${url.href} is not at the provider (${issuer})`);
    let request: { method: 'GET' } | { method: 'POST'; body: URLSearchParams } = { method: 'GET' };
    let interactions = 0;

    // A browser's hops: each answer is a redirect (followed while it stays at the provider), the
    // login page (answered with the account), or an error.
    for (let hop = 0; hop < 30; hop++) {
      const headers = new Headers();
      const cookie = jar.headerFor(url);
      if (cookie) headers.set('cookie', cookie);
      if (request.method === 'POST') headers.set('content-type', 'application/x-www-form-urlencoded');
      const response = await fetch(url, {
        method: request.method,
        headers,
        body: request.method === 'POST' ? request.body : undefined,
        redirect: 'manual',
      });
      jar.store(response);
      const body = await response.text();
      const location = response.headers.get('location');

      if (response.status >= 300 && response.status < 400 && location) {
        const target = new URL(location, url);
        if (redirectUris.some((uri) => sameEndpoint(uri, target))) {
          const error = target.searchParams.get('error');
          if (error) {
            const description = target.searchParams.get('error_description');
            throw new TestOidcSignInError(`signIn: the provider answered ${error}${description ? ` (${description})` : ''}`, target);
          }
          return target;
        }
        if (target.origin !== issuerOrigin) throw new TestOidcSignInError(`signIn: the provider redirected elsewhere: ${target.href}`);
        url = target;
        request = { method: 'GET' };
        continue;
      }

      if (response.status === 200 && request.method === 'GET' && INTERACTION_PATH.test(url.pathname)) {
        // The login page (and a consent page, if the request asked for one: prompt=consent).
        if (++interactions > 4) throw new TestOidcSignInError('signIn: the provider keeps asking');
        request = { method: 'POST', body: new URLSearchParams({ login: sub }) };
        continue;
      }

      throw new TestOidcSignInError(`signIn: ${request.method} ${url.href} answered ${response.status}: ${body.slice(0, 500)}`);
    }
    throw new TestOidcSignInError('signIn: too many redirects at the provider');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    provider,
    signingKey: { kid, alg: 'RS256', privateKey, privateJwk, publicJwk },
    signIn,
    stop,
    restart,
    async close() {
      closed = true;
      await stop();
    },
  };
}

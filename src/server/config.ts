import os from 'node:os';
import path from 'node:path';
import type { RegistrationSettings } from '../shared/registration.js';
import { POOL_THREADS_PER_IMAGE } from './images/image-queue.js';
import type { MaintenanceConfig } from './db/embedded-maintenance.js';
import { readSettings, type SettingValues, type TrustProxy } from './config/settings.js';

// The environment is read in config/settings.ts, one declared schema a variable; this module
// assembles what the rest of the server reads from those values.
export { trustProxySetting, type TrustProxy } from './config/settings.js';

export interface RateLimitConfig {
  /** Failed sign-ins from one address, whatever the account, per window (answered as usual). */
  loginPerIp: number;
  /**
   * Failed sign-ins from one address per window once loginPerIp is used up: passwords are still
   * checked, a right one signs in, a wrong one gets 429; past these, none is checked (auth.service.ts).
   */
  loginChecksPerIp: number;
  /** Failed sign-ins for one username or e-mail as typed, from one address, per window. */
  loginFailuresPerAccount: number;
  /** New accounts from one address per window. */
  registerPerIp: number;
  /** Password change attempts by one account per window (each costs two argon2 hashes). */
  passwordChangesPerUser: number;
  /** "Forgot password?" requests from one address per window, whatever the account. */
  forgotPerIp: number;
  /** Reset mails one account is sent per window (more are dropped silently: the answer never changes). */
  forgotPerAccount: number;
  /** Reset link checks and uses from one address per window (a use costs an argon2 hash). */
  resetPerIp: number;
  /** E-mail verification link and code checks from one address per window. */
  verifyPerIp: number;
  /** Verification mails one account is sent per window. */
  verifyMailsPerAccount: number;
  /** Verification mails one e-mail address is sent per window, whichever account asks. */
  verifyMailsPerAddress: number;
  windowMs: number;
  /** Posts one user may create per upload window. */
  postsPerUser: number;
  /** Profile picture changes one user may make per upload window. */
  iconChangesPerUser: number;
  uploadWindowMs: number;
  /** Searches (posts or people) from one address per search window, signed in or not. */
  searchPerIp: number;
  /** Searches by one signed-in account per search window, from any address. */
  searchPerUser: number;
  searchWindowMs: number;
  /** Download My Data: ZIPs one account may download per export window (each reads every photo). */
  exportsPerUser: number;
  exportWindowMs: number;
  /** Reports one account may send per report window (issue 17; each lands in the moderators' queue). */
  reportsPerUser: number;
  /** Reports from one address per report window, whatever the account (issue 26: fresh accounts could fill the queue). */
  reportsPerIp: number;
  reportWindowMs: number;
  /** Blocks and unblocks one account may make per block window (issue 17; each rereads two users' follows). */
  blocksPerUser: number;
  blockWindowMs: number;
  /**
   * Saves, removals and board writes one account may make per window (issue 18): each adds a
   * row or two, so this bounds what one account can store per hour.
   */
  boardWritesPerUser: number;
  boardWriteWindowMs: number;
  /** Push subscriptions added per account per hour (issue 30). */
  pushDevicesPerUser: number;
  pushDeviceWindowMs: number;
}

/** What one process spends on searches that no cache answers (search/search.service.ts, post-search.ts). */
export interface SearchCostConfig {
  /** Searches run at once; the rest wait in line. */
  concurrency: number;
  /** Searches that may wait; more are refused with 503 at once. */
  queue: number;
  /** PostgreSQL: a search statement running longer is cancelled (503). PGlite cannot cancel one. */
  statementTimeoutMs: number;
}

/** How long the server waits for slow clients; see app.ts. */
export interface TimeoutConfig {
  /** The whole request, headers and body: a client trickling an upload is cut off after this. */
  requestMs: number;
  /** Until the request headers are complete (at most requestMs). */
  headersMs: number;
  /** An idle keep-alive connection is closed after this. */
  keepAliveMs: number;
}

/** The image queue (images/image-queue.ts). */
export interface ImageWorkConfig {
  /** Images of any cost decoded at once by this process (IMAGE_CONCURRENCY). */
  concurrency: number;
  /** One more lane for cheap uploads (a phone JPEG) beside them, when libuv's pool has room: 1 or 0. */
  cheapLanes: number;
  /** Uploads that may wait for a turn; more are refused with 503 (IMAGE_QUEUE_LENGTH). */
  queueLength: number;
}

/** argon2id's cost: memory in KiB and passes over it (one lane). */
export interface Argon2Cost {
  memoryCost: number;
  timeCost: number;
}

/**
 * argon2id at the OWASP Password Storage Cheat Sheet's recommended minimum:
 * 19 MiB of memory, 2 iterations, 1 lane. What every server uses (auth/password.ts hashes with it).
 */
export const OWASP_ARGON2ID: Argon2Cost = { memoryCost: 19_456, timeCost: 2 };

/** libuv threads the image queue always leaves to argon2 (sign-in) and file reads (/media). */
export const THREADS_KEPT_FROM_IMAGES = 2;

/**
 * The size of libuv's threadpool, which Node sizes from UV_THREADPOOL_SIZE when the process
 * starts (default 4, at most 1024). Setting it later, even first thing in main.ts, has no
 * effect: the ES module loader has already used the pool to read the code.
 */
export function threadpoolSize(env: NodeJS.ProcessEnv): number {
  return readSettings(env, ['UV_THREADPOOL_SIZE']).UV_THREADPOOL_SIZE;
}

/**
 * IMAGE_CONCURRENCY defaults to one image per core but one (the event loop needs a core), and
 * never so many that image work (POOL_THREADS_PER_IMAGE threads each) could take the threads
 * sign-ins and media reads need. A value that would is refused, saying what to raise.
 * One more lane takes only cheap uploads, so a phone photo never waits for a costly upload in
 * work; it needs POOL_THREADS_PER_IMAGE more threads, and is left out when the pool has no room
 * for it: Node's default pool of 4 has room for one image and no cheap lane, `npm start`'s 6 for
 * both (the default lanes leave it room when the pool allows).
 */
export function imageWorkConfig(env: NodeJS.ProcessEnv): ImageWorkConfig {
  return imageWork(readSettings(env, ['UV_THREADPOOL_SIZE', 'IMAGE_CONCURRENCY', 'IMAGE_QUEUE_LENGTH']));
}

function imageWork(settings: Pick<SettingValues, 'UV_THREADPOOL_SIZE' | 'IMAGE_CONCURRENCY' | 'IMAGE_QUEUE_LENGTH'>): ImageWorkConfig {
  const pool = settings.UV_THREADPOOL_SIZE;
  const threadsFor = (lanes: number) => lanes * POOL_THREADS_PER_IMAGE + THREADS_KEPT_FROM_IMAGES;
  const fitted = Math.max(
    1,
    Math.min(os.availableParallelism() - 1, Math.floor((pool - THREADS_KEPT_FROM_IMAGES) / POOL_THREADS_PER_IMAGE) - 1),
  );
  const concurrency = settings.IMAGE_CONCURRENCY ?? fitted;
  if (settings.IMAGE_CONCURRENCY !== undefined && threadsFor(concurrency) > pool) {
    throw new Error(
      `IMAGE_CONCURRENCY=${concurrency} leaves fewer than ${THREADS_KEPT_FROM_IMAGES} of libuv's ${pool} threads for sign-ins and media reads: ` +
        `set UV_THREADPOOL_SIZE to at least ${threadsFor(concurrency)}`,
    );
  }
  return { concurrency, cheapLanes: threadsFor(concurrency + 1) <= pool ? 1 : 0, queueLength: settings.IMAGE_QUEUE_LENGTH };
}

export const DEFAULT_IMAGE_QUEUE_LENGTH = readSettings({}, ['IMAGE_QUEUE_LENGTH']).IMAGE_QUEUE_LENGTH;

export interface MailConfig {
  /** nodemailer's connection URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
  smtpUrl: string;
  /** The From of every mail (MAIL_FROM); by default no-reply at PUBLIC_URL's host, under the product's name. */
  from: string;
}

/**
 * SMTP_URL turns mail on; it needs PUBLIC_URL, or the server refuses to start: a reset link must
 * point at this site whatever Host header the request that asked for it carried.
 */
function mailConfig(settings: Pick<SettingValues, 'SMTP_URL' | 'PUBLIC_URL' | 'MAIL_FROM' | 'APP_NAME'>): MailConfig | undefined {
  const { SMTP_URL: smtpUrl, PUBLIC_URL: publicUrl } = settings;
  if (!smtpUrl) return undefined;
  if (!publicUrl) throw new Error('SMTP_URL is set but PUBLIC_URL is not: set PUBLIC_URL to the address users reach the site at');
  return { smtpUrl, from: settings.MAIL_FROM ?? `${settings.APP_NAME} <no-reply@${new URL(publicUrl).hostname}>` };
}

/** Who may sign up (issue 17). Accounts that exist sign in whatever it says. */
export type RegistrationConfig = RegistrationSettings;

/**
 * REGISTRATION (open by default) and REGISTRATION_EMAIL_DOMAINS. A typo refuses to start rather
 * than fall back to open: an operator who meant `invite` must not get a site anyone can join.
 */
export function registrationConfig(env: NodeJS.ProcessEnv): RegistrationConfig {
  return registration(readSettings(env, ['REGISTRATION', 'REGISTRATION_EMAIL_DOMAINS']));
}

function registration(settings: Pick<SettingValues, 'REGISTRATION' | 'REGISTRATION_EMAIL_DOMAINS'>): RegistrationConfig {
  const { REGISTRATION: mode, REGISTRATION_EMAIL_DOMAINS: emailDomains } = settings;
  if (mode === 'domains' && emailDomains.length === 0) {
    throw new Error('REGISTRATION=domains needs REGISTRATION_EMAIL_DOMAINS, e.g. uni.example.edu,*.uni.example.edu');
  }
  return { mode, emailDomains: mode === 'domains' ? emailDomains : [] };
}

/**
 * Verified addresses need mail (issue 29): `REGISTRATION=domains` promises students of those
 * domains, which only a verified address shows (mailed, or vouched for by single sign-on), and
 * REQUIRE_VERIFIED_EMAIL asks for something only mail can do. Either without what it needs
 * refuses to start, saying why.
 */
function verificationNeedsMail(
  settings: Pick<SettingValues, 'SMTP_URL' | 'REGISTRATION' | 'REQUIRE_VERIFIED_EMAIL' | 'OIDC_ISSUER'>,
): boolean {
  if (settings.SMTP_URL) return settings.REQUIRE_VERIFIED_EMAIL;
  if (settings.REGISTRATION === 'domains' && !settings.OIDC_ISSUER) {
    throw new Error(
      'REGISTRATION=domains needs SMTP_URL (or single sign-on, OIDC_ISSUER): only a verified address shows that someone ' +
        'is at one of those domains. Set SMTP_URL (and PUBLIC_URL), or choose another REGISTRATION',
    );
  }
  if (settings.REQUIRE_VERIFIED_EMAIL) throw new Error('REQUIRE_VERIFIED_EMAIL needs SMTP_URL: addresses are verified by mail');
  return false;
}

export interface SsoConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The button's words: Continue with {name}. */
  name: string;
  scopes: string;
  /** OIDC_ALLOWED_DOMAINS: the provider must vouch for an address at one of these; empty, any. */
  allowedDomains: string[];
  /** Where the provider sends the browser back: PUBLIC_URL/api/auth/sso/callback. */
  redirectUri: string;
  /** SSO_ONLY: nobody but admins signs in with a password. */
  only: boolean;
  /** SSO_STALE_DAYS: no sign-in through the provider for this long, and the account is reminded its university account may have ended. */
  staleDays: number;
}

/**
 * OIDC_* (issue 29): all three of issuer, client id and secret, or none; PUBLIC_URL too, since
 * the redirect URI registered at the provider is built from it, never from a request's Host.
 */
function ssoConfig(
  settings: Pick<
    SettingValues,
    | 'OIDC_ISSUER'
    | 'OIDC_CLIENT_ID'
    | 'OIDC_CLIENT_SECRET'
    | 'OIDC_NAME'
    | 'OIDC_SCOPES'
    | 'OIDC_ALLOWED_DOMAINS'
    | 'PUBLIC_URL'
    | 'REGISTRATION'
    | 'SSO_ONLY'
    | 'SSO_STALE_DAYS'
  >,
): SsoConfig | undefined {
  const { OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret, PUBLIC_URL: publicUrl } = settings;
  if (!issuer && !clientId && !clientSecret) {
    if (settings.REGISTRATION === 'sso')
      throw new Error('REGISTRATION=sso needs single sign-on: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    if (settings.SSO_ONLY) throw new Error('SSO_ONLY needs single sign-on: set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET');
    return undefined;
  }
  const missing = Object.entries({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: clientId, OIDC_CLIENT_SECRET: clientSecret })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length > 0)
    throw new Error(`single sign-on needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET together: ${missing.join(', ')} not set`);
  if (!publicUrl)
    throw new Error('OIDC_ISSUER is set but PUBLIC_URL is not: the provider sends students back to PUBLIC_URL/api/auth/sso/callback');
  const scopes = settings.OIDC_SCOPES.split(/\s+/).filter(Boolean);
  if (!scopes.includes('openid') || !scopes.includes('email')) throw new Error('OIDC_SCOPES must include openid and email');
  return {
    issuer: issuer!,
    clientId: clientId!,
    clientSecret: clientSecret!,
    name: settings.OIDC_NAME,
    scopes: scopes.join(' '),
    allowedDomains: settings.OIDC_ALLOWED_DOMAINS,
    redirectUri: `${publicUrl}/api/auth/sso/callback`,
    only: settings.SSO_ONLY,
    staleDays: settings.SSO_STALE_DAYS,
  };
}

export interface S3Config {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2, ...); omit for AWS. */
  endpoint: string | undefined;
  /** bucket.host/key (virtual-hosted, AWS default) or host/bucket/key (path-style, MinIO). */
  forcePathStyle: boolean;
  prefix: string;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** PostgreSQL connection string; when absent the embedded PGlite under dataDir is used. */
  databaseUrl: string | undefined;
  /** PostgreSQL: connections this process keeps (DATABASE_POOL_SIZE), besides the searches' own. */
  databasePoolSize: number;
  /** S3-compatible storage for media; when absent, files go under dataDir/media. */
  s3: S3Config | undefined;
  /** Redis for rate-limit counters shared by every process; when absent, in memory. */
  redisUrl: string | undefined;
  /**
   * Put before every key this app writes to Redis, so several apps (or a test run) can share one
   * Redis database without touching each other's keys.
   */
  redisKeyPrefix: string;
  appName: string;
  /**
   * The site's address as its users reach it (PUBLIC_URL, an origin like https://dorm.example.edu):
   * links in mail and the admin commands' links are built from it, never from a request's Host
   * header (a forged Host would get victims mailed a link to the attacker's site).
   */
  publicUrl: string | undefined;
  /**
   * SERVER_SECRET: the key of hashes a copy of the database must not open (server-secret.ts).
   * Undefined: one made once in DATA_DIR/server-secret.
   */
  serverSecret: string | undefined;
  /** Mail (SMTP_URL): "Forgot password?" mails reset links. Undefined: no mail, and no such link. */
  mail: MailConfig | undefined;
  /** REGISTRATION, REGISTRATION_EMAIL_DOMAINS: who may sign up. */
  registration: RegistrationConfig;
  /** REQUIRE_VERIFIED_EMAIL: accounts from before verification must verify too (needs mail). */
  requireVerifiedEmail: boolean;
  /** Single sign-on with the university's OpenID provider (OIDC_*); undefined when not set up. */
  sso: SsoConfig | undefined;
  /** Notifications and Web Push (issue 30). */
  notifications: NotificationConfig;
  /** Built client (index.html + assets); served when it exists. */
  clientDir: string;
  /**
   * Which X-Forwarded-* headers to believe: false, a number of proxy hops, or the proxies'
   * addresses (see trustProxySetting).
   */
  trustProxy: TrustProxy;
  logLevel: string;
  /** METRICS_TOKEN: /metrics on the public port to this bearer token; undefined: not served there. */
  metricsToken: string | undefined;
  /** METRICS_PORT: /metrics without a token on 127.0.0.1 at this port (main.ts); undefined: no such listener. */
  metricsPort: number | undefined;
  rateLimits: RateLimitConfig;
  searchCost: SearchCostConfig;
  /**
   * Download My Data ZIPs this process writes at once (EXPORT_CONCURRENCY); one more is refused
   * with 503 at once rather than held waiting (accounts/export.service.ts).
   */
  exportConcurrency: number;
  /**
   * A download whose reader has taken nothing for this long (EXPORT_STALL_MS) is cut off and its
   * export slot freed (http/stalled-response.ts): idle connections cannot hold the slots.
   */
  exportStallMs: number;
  /**
   * How long any shared read may be reused (cache/read-cache.ts): a safety net, since changes
   * make entries stale at once, on every process; 0 turns the cache off.
   */
  cacheTtlMs: number;
  /** The embedded database's own VACUUM and ANALYZE (PGlite runs no autovacuum). */
  embeddedMaintenance: MaintenanceConfig;
  /** How long a session's user is remembered (embedded database only); 0 turns it off. */
  sessionCacheMs: number;
  /**
   * Reports sent by an account younger than this (at the time of the report) rank after the
   * others in the moderation queue and are marked there (issue 26); 0 marks none.
   */
  reportNewAccountMs: number;
  /** Bytes the shared read cache (cache/read-cache.ts) may hold, all its regions together. */
  cacheMaxBytes: number;
  timeouts: TimeoutConfig;
  /** A new PostgreSQL connection that takes longer fails (503) instead of holding the request. */
  databaseConnectTimeoutMs: number;
  /** PostgreSQL: each statement prepared once per connection (db/postgres-prepared.ts). */
  databasePreparedStatements: boolean;
  /**
   * Files that no row has owned for this long (an upload or deletion cut short by a crash) are
   * deleted, by a sweep at start-up and then at this interval; 0 = at start-up only, all of them
   * (only sound when one process uses the database). See storage/tracked-files.ts.
   */
  orphanFileAgeMs: number;
  images: ImageWorkConfig;
  /**
   * argon2id's cost for new password hashes. Not read from the environment: a server always
   * hashes at OWASP's parameters; only tests lower it (checking a hash costs what it says).
   */
  passwordHashing: Argon2Cost;
}

/** Rate limits from the settings; the windows are fixed (docs/configuration.md names them). */
function rateLimitConfig(settings: SettingValues): RateLimitConfig {
  const minutes = 60 * 1000;
  return {
    loginPerIp: settings.RATE_LIMIT_LOGIN_PER_IP,
    loginChecksPerIp: settings.RATE_LIMIT_LOGIN_CHECKS_PER_IP,
    loginFailuresPerAccount: settings.RATE_LIMIT_LOGIN_FAILURES,
    registerPerIp: settings.RATE_LIMIT_REGISTER_PER_IP,
    passwordChangesPerUser: settings.RATE_LIMIT_PASSWORD_CHANGES,
    forgotPerIp: settings.RATE_LIMIT_FORGOT_PER_IP,
    forgotPerAccount: settings.RATE_LIMIT_FORGOT_PER_ACCOUNT,
    resetPerIp: settings.RATE_LIMIT_RESET_PER_IP,
    verifyPerIp: settings.RATE_LIMIT_VERIFY_PER_IP,
    verifyMailsPerAccount: settings.RATE_LIMIT_VERIFY_MAILS_PER_ACCOUNT,
    verifyMailsPerAddress: settings.RATE_LIMIT_VERIFY_MAILS_PER_ADDRESS,
    windowMs: 15 * minutes,
    postsPerUser: settings.RATE_LIMIT_POSTS_PER_USER,
    iconChangesPerUser: settings.RATE_LIMIT_ICONS_PER_USER,
    uploadWindowMs: 60 * minutes,
    searchPerIp: settings.RATE_LIMIT_SEARCH_PER_IP,
    searchPerUser: settings.RATE_LIMIT_SEARCH_PER_USER,
    searchWindowMs: minutes,
    exportsPerUser: settings.RATE_LIMIT_EXPORTS_PER_USER,
    exportWindowMs: 60 * minutes,
    reportsPerUser: settings.RATE_LIMIT_REPORTS_PER_USER,
    reportsPerIp: settings.RATE_LIMIT_REPORTS_PER_IP,
    reportWindowMs: 60 * minutes,
    blocksPerUser: settings.RATE_LIMIT_BLOCKS_PER_USER,
    blockWindowMs: 60 * minutes,
    boardWritesPerUser: settings.RATE_LIMIT_BOARD_WRITES_PER_USER,
    boardWriteWindowMs: 60 * minutes,
    pushDevicesPerUser: settings.RATE_LIMIT_PUSH_DEVICES_PER_USER,
    pushDeviceWindowMs: 60 * minutes,
  };
}

/** What an unset environment gives: the defaults declared in config/settings.ts. */
const DEFAULT_SETTINGS = readSettings({});

export const DEFAULT_RATE_LIMITS: RateLimitConfig = rateLimitConfig(DEFAULT_SETTINGS);

/**
 * The embedded database runs one statement at a time (in a thread of its own): two searches at
 * a time keep it busy while the server's thread answers one and the other's next statement is
 * already waiting (one at a time left it idle a third of the time: 100k posts, 16 clients,
 * caches off, 182 → 262 searches a second), and a feed query waits behind at most two search
 * statements. PostgreSQL
 * runs them in parallel, but a few at a time leave the other requests their share of the cores:
 * 4, since a search costs a few milliseconds, about half of them round trips (at 1M posts,
 * uncached searches went from 319 to 467 a second, and the home feed beside 16 clients sending
 * different uncached searches stayed at p99 36 ms; BENCHMARKS.md).
 */
export function defaultSearchCost(embedded: boolean): SearchCostConfig {
  return searchCost({ ...DEFAULT_SETTINGS, DATABASE_URL: embedded ? undefined : 'postgres://' });
}

function searchCost(settings: SettingValues): SearchCostConfig {
  return {
    concurrency: settings.SEARCH_CONCURRENCY ?? (settings.DATABASE_URL ? 4 : 2),
    queue: settings.SEARCH_QUEUE,
    statementTimeoutMs: settings.SEARCH_STATEMENT_TIMEOUT_MS,
  };
}

function timeoutConfig(settings: SettingValues): TimeoutConfig {
  return {
    requestMs: settings.REQUEST_TIMEOUT_MS,
    headersMs: settings.HEADERS_TIMEOUT_MS,
    keepAliveMs: settings.KEEP_ALIVE_TIMEOUT_MS,
  };
}

export const DEFAULT_TIMEOUTS: TimeoutConfig = timeoutConfig(DEFAULT_SETTINGS);

export interface NotificationConfig {
  /** NOTIFICATION_RETENTION_DAYS. */
  retentionDays: number;
  /** VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY; undefined: the pair kept in the database. */
  vapidKeys: { publicKey: string; privateKey: string } | undefined;
  /** VAPID_SUBJECT, else an https PUBLIC_URL, else a mailto: of localhost. */
  vapidSubject: string;
  /** PUSH_SERVICES: the origins a subscription's endpoint may be at. */
  pushServices: string[];
}

function notificationConfig(settings: SettingValues): NotificationConfig {
  const { VAPID_PUBLIC_KEY: publicKey, VAPID_PRIVATE_KEY: privateKey } = settings;
  if ((publicKey === undefined) !== (privateKey === undefined))
    throw new Error('VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both, or neither (a pair is then kept in the database)');
  const reachable = (address: string | undefined) => address !== undefined && /^(mailto:|https:\/\/)/.test(address);
  if (settings.VAPID_SUBJECT !== undefined && !reachable(settings.VAPID_SUBJECT))
    throw new Error('VAPID_SUBJECT must be a mailto: or https: address');
  // RFC 8292: a push service may refuse a subject it cannot reach; an http PUBLIC_URL is not one.
  const subject = settings.VAPID_SUBJECT ?? (reachable(settings.PUBLIC_URL) ? settings.PUBLIC_URL! : 'mailto:webmaster@localhost');
  return {
    retentionDays: settings.NOTIFICATION_RETENTION_DAYS,
    vapidKeys: publicKey && privateKey ? { publicKey, privateKey } : undefined,
    vapidSubject: subject,
    pushServices: settings.PUSH_SERVICES,
  };
}

/** The server's settings from the environment; a value it would misread stops it, naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const settings = readSettings(env);
  return {
    port: settings.PORT,
    host: settings.HOST,
    dataDir: path.resolve(settings.DATA_DIR),
    databaseUrl: settings.DATABASE_URL,
    databasePoolSize: settings.DATABASE_POOL_SIZE,
    s3: settings.S3_BUCKET
      ? {
          bucket: settings.S3_BUCKET,
          region: settings.S3_REGION ?? settings.AWS_REGION ?? 'us-east-1',
          endpoint: settings.S3_ENDPOINT,
          forcePathStyle: settings.S3_FORCE_PATH_STYLE,
          prefix: settings.S3_PREFIX,
        }
      : undefined,
    redisUrl: settings.REDIS_URL,
    redisKeyPrefix: settings.REDIS_KEY_PREFIX,
    appName: settings.APP_NAME,
    publicUrl: settings.PUBLIC_URL,
    serverSecret: settings.SERVER_SECRET,
    mail: mailConfig(settings),
    registration: registration(settings),
    sso: ssoConfig(settings),
    notifications: notificationConfig(settings),
    requireVerifiedEmail: verificationNeedsMail(settings),
    clientDir: path.resolve(settings.CLIENT_DIR),
    trustProxy: settings.TRUST_PROXY,
    logLevel: settings.LOG_LEVEL,
    metricsToken: settings.METRICS_TOKEN,
    metricsPort: settings.METRICS_PORT,
    searchCost: searchCost(settings),
    exportConcurrency: settings.EXPORT_CONCURRENCY,
    exportStallMs: settings.EXPORT_STALL_MS,
    cacheTtlMs: settings.CACHE_TTL_MS,
    embeddedMaintenance: { vacuumMs: settings.EMBEDDED_VACUUM_MS, analyzeMs: settings.EMBEDDED_ANALYZE_MS },
    sessionCacheMs: settings.SESSION_CACHE_MS,
    reportNewAccountMs: settings.REPORT_NEW_ACCOUNT_MS,
    cacheMaxBytes: settings.CACHE_MAX_MB * 1024 * 1024,
    rateLimits: rateLimitConfig(settings),
    timeouts: timeoutConfig(settings),
    databaseConnectTimeoutMs: settings.DATABASE_CONNECT_TIMEOUT_MS,
    databasePreparedStatements: settings.DATABASE_PREPARED_STATEMENTS === 'on',
    orphanFileAgeMs: settings.ORPHAN_FILE_AGE_MS,
    images: imageWork(settings),
    passwordHashing: OWASP_ARGON2ID,
  };
}

import os from 'node:os';
import path from 'node:path';
import { DEFAULT_APP_NAME } from '../shared/app-name.js';
import { isDomainEntry, isRegistrationMode, REGISTRATION_MODES, type RegistrationSettings } from '../shared/registration.js';
import { POOL_THREADS_PER_IMAGE } from './images/image-queue.js';
import { SERVER_SECRET_MIN_LENGTH } from './server-secret.js';
import type { MaintenanceConfig } from './db/embedded-maintenance.js';

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

/**
 * TRUST_PROXY: empty or 'false' believes no forwarded header; 'true' means one proxy in front
 * (nginx), a number that many; anything else is a comma-separated list of proxy addresses or
 * CIDRs. Never "every hop": a client can send its own X-Forwarded-For, and a proxy appends to it,
 * so only the entries our own proxies added may be believed; the leftmost one is whatever the
 * client chose, and trusting it would let anyone dodge the per-address sign-in limits.
 */
export function trustProxySetting(value: string | undefined): TrustProxy {
  const setting = (value ?? '').trim();
  if (setting === '' || setting === 'false' || setting === '0') return false;
  const hops = setting === 'true' ? 1 : /^\d+$/.test(setting) ? Number(setting) : undefined;
  // Fastify's own "number of hops", spelled as the function it stands for (its types omit numbers).
  if (hops !== undefined) return (_address: string, hop: number) => hop < hops;
  return setting;
}

export type TrustProxy = boolean | string | ((address: string, hop: number) => boolean);

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
  const size = Number(env.UV_THREADPOOL_SIZE);
  return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
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
  const pool = threadpoolSize(env);
  const threadsFor = (lanes: number) => lanes * POOL_THREADS_PER_IMAGE + THREADS_KEPT_FROM_IMAGES;
  const fitted = Math.max(
    1,
    Math.min(os.availableParallelism() - 1, Math.floor((pool - THREADS_KEPT_FROM_IMAGES) / POOL_THREADS_PER_IMAGE) - 1),
  );
  const concurrency = integer(env.IMAGE_CONCURRENCY, fitted, 'IMAGE_CONCURRENCY');
  if (concurrency < 1) throw new Error('IMAGE_CONCURRENCY must be at least 1');
  if (env.IMAGE_CONCURRENCY && threadsFor(concurrency) > pool) {
    throw new Error(
      `IMAGE_CONCURRENCY=${concurrency} leaves fewer than ${THREADS_KEPT_FROM_IMAGES} of libuv's ${pool} threads for sign-ins and media reads: ` +
        `set UV_THREADPOOL_SIZE to at least ${threadsFor(concurrency)}`,
    );
  }
  return {
    concurrency,
    cheapLanes: threadsFor(concurrency + 1) <= pool ? 1 : 0,
    queueLength: integer(env.IMAGE_QUEUE_LENGTH, DEFAULT_IMAGE_QUEUE_LENGTH, 'IMAGE_QUEUE_LENGTH'),
  };
}

/** About five seconds of work for one core at ~0.3 s a photo. */
export const DEFAULT_IMAGE_QUEUE_LENGTH = 16;

export interface MailConfig {
  /** nodemailer's connection URL: smtp://user:pass@host:587 (STARTTLS when offered) or smtps://host:465. */
  smtpUrl: string;
  /** The From of every mail (MAIL_FROM); by default no-reply at PUBLIC_URL's host, under the product's name. */
  from: string;
}

/** PUBLIC_URL as an origin (no path, no trailing slash); refused unless http(s) and nothing more. */
export function publicUrlSetting(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be a URL like https://dorm.example.edu, got ${JSON.stringify(value)}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    throw new Error(`PUBLIC_URL must be the site's origin only, like https://dorm.example.edu, got ${JSON.stringify(value)}`);
  }
  return url.origin;
}

/**
 * SMTP_URL turns mail on; it needs PUBLIC_URL, or the server refuses to start: a reset link must
 * point at this site whatever Host header the request that asked for it carried.
 */
function mailConfig(env: NodeJS.ProcessEnv, appName: string, publicUrl: string | undefined): MailConfig | undefined {
  if (!env.SMTP_URL) return undefined;
  if (!publicUrl) throw new Error('SMTP_URL is set but PUBLIC_URL is not: set PUBLIC_URL to the address users reach the site at');
  if (!/^smtps?:\/\//.test(env.SMTP_URL)) throw new Error('SMTP_URL must start with smtp:// or smtps://');
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM || `${appName} <no-reply@${new URL(publicUrl).hostname}>` };
}

/** Who may sign up (issue 17). Accounts that exist sign in whatever it says. */
export type RegistrationConfig = RegistrationSettings;

/**
 * REGISTRATION (open by default) and REGISTRATION_EMAIL_DOMAINS. A typo refuses to start rather
 * than fall back to open: an operator who meant `invite` must not get a site anyone can join.
 */
export function registrationConfig(env: NodeJS.ProcessEnv): RegistrationConfig {
  const mode = (env.REGISTRATION || 'open').trim().toLowerCase();
  if (!isRegistrationMode(mode)) {
    throw new Error(`REGISTRATION must be one of ${REGISTRATION_MODES.join(', ')}, got ${JSON.stringify(env.REGISTRATION)}`);
  }
  const emailDomains = (env.REGISTRATION_EMAIL_DOMAINS ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = emailDomains.find((entry) => !isDomainEntry(entry));
  if (bad !== undefined) {
    throw new Error(
      `REGISTRATION_EMAIL_DOMAINS: ${JSON.stringify(bad)} is not a domain (uni.example.edu) or any subdomain of one (*.uni.example.edu)`,
    );
  }
  if (mode === 'domains' && emailDomains.length === 0) {
    throw new Error('REGISTRATION=domains needs REGISTRATION_EMAIL_DOMAINS, e.g. uni.example.edu,*.uni.example.edu');
  }
  return { mode, emailDomains: mode === 'domains' ? emailDomains : [] };
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
  /** Built client (index.html + assets); served when it exists. */
  clientDir: string;
  /** Set behind a reverse proxy so the client address and HTTPS are read from X-Forwarded-*. */
  /**
   * Which X-Forwarded-* headers to believe: false, a number of proxy hops, or the proxies'
   * addresses (see trustProxySetting).
   */
  trustProxy: TrustProxy;
  logLevel: string;
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

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  loginPerIp: 100,
  loginChecksPerIp: 1000,
  loginFailuresPerAccount: 10,
  registerPerIp: 20,
  passwordChangesPerUser: 10,
  forgotPerIp: 10,
  forgotPerAccount: 3,
  resetPerIp: 30,
  windowMs: 15 * 60 * 1000,
  postsPerUser: 30,
  iconChangesPerUser: 10,
  uploadWindowMs: 60 * 60 * 1000,
  searchPerIp: 300,
  searchPerUser: 120,
  searchWindowMs: 60 * 1000,
  exportsPerUser: 5,
  exportWindowMs: 60 * 60 * 1000,
  reportsPerUser: 20,
  reportsPerIp: 100,
  reportWindowMs: 60 * 60 * 1000,
  blocksPerUser: 60,
  blockWindowMs: 60 * 60 * 1000,
  boardWritesPerUser: 600,
  boardWriteWindowMs: 60 * 60 * 1000,
};

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
  return { concurrency: embedded ? 2 : 4, queue: 32, statementTimeoutMs: 2_000 };
}

export const DEFAULT_TIMEOUTS: TimeoutConfig = {
  requestMs: 30_000,
  headersMs: 10_000,
  // Above the 60 s idle timeout of common load balancers, so they close first (Fastify's default).
  keepAliveMs: 72_000,
};

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
}

function searchCost(env: NodeJS.ProcessEnv): SearchCostConfig {
  const defaults = defaultSearchCost(!env.DATABASE_URL);
  return {
    concurrency: Math.max(1, integer(env.SEARCH_CONCURRENCY, defaults.concurrency, 'SEARCH_CONCURRENCY')),
    queue: integer(env.SEARCH_QUEUE, defaults.queue, 'SEARCH_QUEUE'),
    statementTimeoutMs: integer(env.SEARCH_STATEMENT_TIMEOUT_MS, defaults.statementTimeoutMs, 'SEARCH_STATEMENT_TIMEOUT_MS'),
  };
}

/** Settings a release replaced: a server that still sets one would not do what its operator expects. */
const REPLACED_SETTINGS: Record<string, string> = {
  FEED_CACHE_MS: 'CACHE_TTL_MS',
  SEARCH_CACHE_MS: 'CACHE_TTL_MS',
  READ_CACHE_MS: 'CACHE_TTL_MS',
};

function refuseReplacedSettings(env: NodeJS.ProcessEnv) {
  for (const [old, replacement] of Object.entries(REPLACED_SETTINGS)) {
    if (env[old] !== undefined) {
      throw new Error(`${old} is no longer read: set ${replacement} instead (README, "Caching": changes now reach every cache at once)`);
    }
  }
}

/** A secret too short to resist guessing is refused, rather than used. */
function serverSecretSetting(value: string | undefined): string | undefined {
  if (!value) return undefined;
  if (value.length < SERVER_SECRET_MIN_LENGTH) {
    throw new Error(`SERVER_SECRET must be at least ${SERVER_SECRET_MIN_LENGTH} characters (e.g. openssl rand -base64 32)`);
  }
  return value;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  refuseReplacedSettings(env);
  const appName = env.APP_NAME || DEFAULT_APP_NAME;
  const publicUrl = publicUrlSetting(env.PUBLIC_URL);
  return {
    port: integer(env.PORT, 3000, 'PORT'),
    host: env.HOST || '0.0.0.0',
    dataDir: path.resolve(env.DATA_DIR || 'data'),
    databaseUrl: env.DATABASE_URL || undefined,
    s3: env.S3_BUCKET
      ? {
          bucket: env.S3_BUCKET,
          region: env.S3_REGION || env.AWS_REGION || 'us-east-1',
          endpoint: env.S3_ENDPOINT || undefined,
          forcePathStyle: env.S3_FORCE_PATH_STYLE === 'true' || env.S3_FORCE_PATH_STYLE === '1',
          prefix: env.S3_PREFIX || '',
        }
      : undefined,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX ?? 'dormboard:',
    appName,
    publicUrl,
    serverSecret: serverSecretSetting(env.SERVER_SECRET),
    mail: mailConfig(env, appName, publicUrl),
    registration: registrationConfig(env),
    clientDir: path.resolve(env.CLIENT_DIR || 'dist/client'),
    trustProxy: trustProxySetting(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL || 'info',
    searchCost: searchCost(env),
    exportConcurrency: Math.max(1, integer(env.EXPORT_CONCURRENCY, 2, 'EXPORT_CONCURRENCY')),
    exportStallMs: Math.max(1, integer(env.EXPORT_STALL_MS, 30_000, 'EXPORT_STALL_MS')),
    cacheTtlMs: integer(env.CACHE_TTL_MS, 60_000, 'CACHE_TTL_MS'),
    embeddedMaintenance: {
      vacuumMs: integer(env.EMBEDDED_VACUUM_MS, 3_600_000, 'EMBEDDED_VACUUM_MS'),
      analyzeMs: integer(env.EMBEDDED_ANALYZE_MS, 86_400_000, 'EMBEDDED_ANALYZE_MS'),
    },
    sessionCacheMs: integer(env.SESSION_CACHE_MS, 60_000, 'SESSION_CACHE_MS'),
    reportNewAccountMs: integer(env.REPORT_NEW_ACCOUNT_MS, 24 * 60 * 60 * 1000, 'REPORT_NEW_ACCOUNT_MS'),
    cacheMaxBytes: integer(env.CACHE_MAX_MB, 64, 'CACHE_MAX_MB') * 1024 * 1024,
    rateLimits: {
      loginPerIp: integer(env.RATE_LIMIT_LOGIN_PER_IP, DEFAULT_RATE_LIMITS.loginPerIp, 'RATE_LIMIT_LOGIN_PER_IP'),
      loginChecksPerIp: integer(env.RATE_LIMIT_LOGIN_CHECKS_PER_IP, DEFAULT_RATE_LIMITS.loginChecksPerIp, 'RATE_LIMIT_LOGIN_CHECKS_PER_IP'),
      loginFailuresPerAccount: integer(
        env.RATE_LIMIT_LOGIN_FAILURES,
        DEFAULT_RATE_LIMITS.loginFailuresPerAccount,
        'RATE_LIMIT_LOGIN_FAILURES',
      ),
      registerPerIp: integer(env.RATE_LIMIT_REGISTER_PER_IP, DEFAULT_RATE_LIMITS.registerPerIp, 'RATE_LIMIT_REGISTER_PER_IP'),
      passwordChangesPerUser: integer(
        env.RATE_LIMIT_PASSWORD_CHANGES,
        DEFAULT_RATE_LIMITS.passwordChangesPerUser,
        'RATE_LIMIT_PASSWORD_CHANGES',
      ),
      forgotPerIp: integer(env.RATE_LIMIT_FORGOT_PER_IP, DEFAULT_RATE_LIMITS.forgotPerIp, 'RATE_LIMIT_FORGOT_PER_IP'),
      forgotPerAccount: integer(env.RATE_LIMIT_FORGOT_PER_ACCOUNT, DEFAULT_RATE_LIMITS.forgotPerAccount, 'RATE_LIMIT_FORGOT_PER_ACCOUNT'),
      resetPerIp: integer(env.RATE_LIMIT_RESET_PER_IP, DEFAULT_RATE_LIMITS.resetPerIp, 'RATE_LIMIT_RESET_PER_IP'),
      windowMs: DEFAULT_RATE_LIMITS.windowMs,
      postsPerUser: integer(env.RATE_LIMIT_POSTS_PER_USER, DEFAULT_RATE_LIMITS.postsPerUser, 'RATE_LIMIT_POSTS_PER_USER'),
      iconChangesPerUser: integer(env.RATE_LIMIT_ICONS_PER_USER, DEFAULT_RATE_LIMITS.iconChangesPerUser, 'RATE_LIMIT_ICONS_PER_USER'),
      uploadWindowMs: DEFAULT_RATE_LIMITS.uploadWindowMs,
      searchPerIp: integer(env.RATE_LIMIT_SEARCH_PER_IP, DEFAULT_RATE_LIMITS.searchPerIp, 'RATE_LIMIT_SEARCH_PER_IP'),
      searchPerUser: integer(env.RATE_LIMIT_SEARCH_PER_USER, DEFAULT_RATE_LIMITS.searchPerUser, 'RATE_LIMIT_SEARCH_PER_USER'),
      searchWindowMs: DEFAULT_RATE_LIMITS.searchWindowMs,
      exportsPerUser: integer(env.RATE_LIMIT_EXPORTS_PER_USER, DEFAULT_RATE_LIMITS.exportsPerUser, 'RATE_LIMIT_EXPORTS_PER_USER'),
      exportWindowMs: DEFAULT_RATE_LIMITS.exportWindowMs,
      reportsPerUser: integer(env.RATE_LIMIT_REPORTS_PER_USER, DEFAULT_RATE_LIMITS.reportsPerUser, 'RATE_LIMIT_REPORTS_PER_USER'),
      reportsPerIp: integer(env.RATE_LIMIT_REPORTS_PER_IP, DEFAULT_RATE_LIMITS.reportsPerIp, 'RATE_LIMIT_REPORTS_PER_IP'),
      reportWindowMs: DEFAULT_RATE_LIMITS.reportWindowMs,
      blocksPerUser: integer(env.RATE_LIMIT_BLOCKS_PER_USER, DEFAULT_RATE_LIMITS.blocksPerUser, 'RATE_LIMIT_BLOCKS_PER_USER'),
      blockWindowMs: DEFAULT_RATE_LIMITS.blockWindowMs,
      boardWritesPerUser: integer(
        env.RATE_LIMIT_BOARD_WRITES_PER_USER,
        DEFAULT_RATE_LIMITS.boardWritesPerUser,
        'RATE_LIMIT_BOARD_WRITES_PER_USER',
      ),
      boardWriteWindowMs: DEFAULT_RATE_LIMITS.boardWriteWindowMs,
    },
    timeouts: {
      requestMs: integer(env.REQUEST_TIMEOUT_MS, DEFAULT_TIMEOUTS.requestMs, 'REQUEST_TIMEOUT_MS'),
      headersMs: integer(env.HEADERS_TIMEOUT_MS, DEFAULT_TIMEOUTS.headersMs, 'HEADERS_TIMEOUT_MS'),
      keepAliveMs: integer(env.KEEP_ALIVE_TIMEOUT_MS, DEFAULT_TIMEOUTS.keepAliveMs, 'KEEP_ALIVE_TIMEOUT_MS'),
    },
    databaseConnectTimeoutMs: integer(env.DATABASE_CONNECT_TIMEOUT_MS, 5_000, 'DATABASE_CONNECT_TIMEOUT_MS'),
    orphanFileAgeMs: integer(env.ORPHAN_FILE_AGE_MS, 60 * 60 * 1000, 'ORPHAN_FILE_AGE_MS'),
    images: imageWorkConfig(env),
    passwordHashing: OWASP_ARGON2ID,
  };
}

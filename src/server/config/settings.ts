import { DEFAULT_APP_NAME } from '../../shared/app-name.js';
import { isDomainEntry, REGISTRATION_MODES } from '../../shared/registration.js';
import { DEFAULT_PUSH_SERVICES, pushServiceEntry } from './push-services.js';
import { SERVER_SECRET_MIN_LENGTH } from '../server-secret.js';
import { custom, flag, integer, oneOf, Refusal, text, type Setting, type SettingValue } from './setting.js';

/**
 * Every environment variable the server reads. docs/configuration.md is made from this
 * (`npm run docs:config`; a test fails when they differ): a section for each `group`
 * (setting-groups.ts), its settings in this order. Nothing else in the server reads the
 * environment: config.ts assembles the Config the rest reads from these values.
 */
export const SETTINGS = {
  PORT: integer({ group: 'server', default: 3000, about: 'port to listen on' }),
  HOST: text({ group: 'server', default: '0.0.0.0', about: 'address to listen on' }),
  DATA_DIR: text({
    group: 'database',
    default: 'data',
    shown: '`./data`',
    about: 'where the embedded database (and uploaded images) live',
  }),
  CLIENT_DIR: text({
    group: 'server',
    default: 'dist/client',
    shown: '`./dist/client`',
    about: 'the built client (`index.html` and its assets), served when it exists; `npm start` builds it there',
  }),
  DATABASE_URL: text({
    group: 'database',
    default: undefined,
    about: 'use this PostgreSQL server (15 or newer) instead of the embedded database',
  }),
  DATABASE_POOL_SIZE: custom({
    group: 'database',
    shown: '`10`',
    about:
      'PostgreSQL: connections per process, plus `SEARCH_CONCURRENCY` for post searches; keep `N × (pool + SEARCH_CONCURRENCY)` ' +
      "under the server's `max_connections` (a value that is not a number, or `0`, means 10)",
    // As it has always been read: never refused.
    read: (value) => Number(value) || 10,
  }),
  DATABASE_CONNECT_TIMEOUT_MS: integer({
    group: 'database',
    default: 5_000,
    about: 'PostgreSQL: a connection not made by then fails the request with 503 instead of waiting',
  }),
  DATABASE_PREPARED_STATEMENTS: oneOf(['on', 'off'], {
    group: 'database',
    default: 'on',
    about:
      'PostgreSQL: `on` prepares each statement once per connection (planned once, not per request); `off` behind a pooler in ' +
      'transaction mode that cannot keep prepared statements (PgBouncer before 1.21)',
  }),
  S3_BUCKET: text({
    group: 'storage',
    default: undefined,
    about:
      'keep images in this S3-compatible bucket instead of `DATA_DIR/media`; credentials are whatever the AWS SDK finds ' +
      '(`AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, instance roles)',
  }),
  S3_ENDPOINT: text({
    group: 'storage',
    default: undefined,
    about: 'with `S3_BUCKET`: the endpoint of an S3-compatible service (MinIO, R2, ...); unset for AWS',
  }),
  S3_REGION: text({
    group: 'storage',
    default: undefined,
    shown: '`AWS_REGION`, else `us-east-1`',
    about: "with `S3_BUCKET`: the bucket's region (`auto` for R2)",
  }),
  AWS_REGION: text({ group: 'storage', default: undefined, about: "the AWS SDK's own region variable, used when `S3_REGION` is unset" }),
  S3_FORCE_PATH_STYLE: flag({
    group: 'storage',
    about: 'with `S3_BUCKET`: `true` or `1` for `host/bucket/key` addresses (MinIO); anything else means `bucket.host/key` (AWS, R2)',
  }),
  S3_PREFIX: text({ group: 'storage', default: '', about: 'with `S3_BUCKET`: put before every key, when the bucket is shared (`prod/`)' }),
  REDIS_URL: text({
    group: 'processes',
    default: undefined,
    about: 'share rate-limit counters between processes (Redis 7+); unset, each process counts alone',
  }),
  REDIS_KEY_PREFIX: text({
    group: 'processes',
    default: 'dormboard:',
    keepEmpty: true,
    about: "put before every key the app writes to Redis, so apps (or test runs) sharing one Redis database never touch each other's keys",
  }),
  APP_NAME: text({ group: 'server', default: DEFAULT_APP_NAME, about: 'the product name shown in the UI' }),
  PUBLIC_URL: custom({
    group: 'server',
    shown: '—',
    about:
      "the site's address as users reach it (an origin: `https://dorm.example.edu`): reset links (mail, `npm run admin`; refused " +
      'without it) are built from it, never from Host; the only `Origin` a write may carry. Required with `SMTP_URL`. Unset: a ' +
      'warning at start (link previews then take their addresses from the request)',
    read: publicUrl,
  }),
  SERVER_SECRET: custom({
    group: 'accounts',
    shown: '`DATA_DIR/server-secret`',
    about:
      "key of the hash kept of a deleted account's address (its held name): 32+ characters, e.g. `openssl rand -base64 32`. " +
      'Unset: 32 random bytes made once into `DATA_DIR/server-secret` (owner-only; keep it with the data). PostgreSQL with ' +
      'several processes: set it, the same in each (unset, each warns at start)',
    // A secret too short to resist guessing is refused, rather than used.
    read: (value) =>
      value === undefined || value.length >= SERVER_SECRET_MIN_LENGTH
        ? value
        : new Refusal(`SERVER_SECRET must be at least ${SERVER_SECRET_MIN_LENGTH} characters (e.g. openssl rand -base64 32)`),
  }),
  SMTP_URL: custom({
    group: 'mail',
    shown: '—',
    about:
      'send mail through this SMTP server (`smtp://user:pass@host:587`, STARTTLS when offered; `smtps://…:465`): the sign-in ' +
      'screen then offers **Forgot password?**, which mails a reset link, and a new account verifies its address by a mailed ' +
      'link or code before it posts, follows, saves, reports or invites. Needs `PUBLIC_URL`; `REGISTRATION=domains` needs it. ' +
      'Unset: no mail, no such link (`npm run admin -- reset-link` still works), addresses are not verified',
    read: (value) =>
      value === undefined || /^smtps?:\/\//.test(value) ? value : new Refusal('SMTP_URL must start with smtp:// or smtps://'),
  }),
  REQUIRE_VERIFIED_EMAIL: flag({
    group: 'mail',
    about:
      'with `SMTP_URL`: accounts made before addresses were verified must verify theirs too before they post, follow, save, ' +
      'report or invite (new accounts always must while mail is on). Needs `SMTP_URL`',
  }),
  MAIL_FROM: text({ group: 'mail', default: undefined, shown: "`APP_NAME <no-reply@PUBLIC_URL's host>`", about: 'the From of every mail' }),
  OIDC_ISSUER: custom({
    group: 'sso',
    shown: '—',
    about:
      "the provider's issuer URL (`https://login.uni.example.edu/realms/students`): its discovery document is read from " +
      '`/.well-known/openid-configuration` under it. Set with `OIDC_CLIENT_ID`, `OIDC_CLIENT_SECRET` and `PUBLIC_URL`',
    read: (value) => {
      if (value === undefined) return undefined;
      try {
        const url = new URL(value);
        if (url.protocol === 'https:' || url.protocol === 'http:') return url.href.replace(/\/$/, '');
      } catch {
        // Refused below.
      }
      return new Refusal('OIDC_ISSUER must be an http(s) URL');
    },
  }),
  OIDC_CLIENT_ID: text({ group: 'sso', default: undefined, about: 'the client id dormboard is registered under at the provider' }),
  OIDC_CLIENT_SECRET: text({ group: 'sso', default: undefined, about: 'its client secret (sent with HTTP Basic authentication)' }),
  OIDC_NAME: text({
    group: 'sso',
    default: 'Single Sign-On',
    about: "the provider's name on the sign-in screen's button: **Continue with {OIDC_NAME}** (`Uni Login`)",
  }),
  OIDC_SCOPES: text({ group: 'sso', default: 'openid email profile', about: 'the scopes asked for; `openid` and `email` are needed' }),
  SSO_ONLY: flag({
    group: 'sso',
    about:
      '`true`: everyone but admins signs in through single sign-on only: the sign-in screen shows **Continue with ' +
      '{OIDC_NAME}** (the password form behind a link for admins), and the server refuses a password sign-in or a reset ' +
      'link of anyone else. Needs `OIDC_*`',
  }),
  OIDC_ALLOWED_DOMAINS: custom({
    group: 'sso',
    shown: '—',
    about:
      'a comma-separated list of `uni.example.edu` and `*.uni.example.edu`: single sign-on is refused unless the provider ' +
      'vouches for an address at one of them (`email_verified`). Unset: any address the provider gives',
    read: domainList('OIDC_ALLOWED_DOMAINS'),
  }),
  SSO_STALE_DAYS: integer({
    group: 'sso',
    default: 400,
    min: 1,
    about:
      'an account the provider has not signed in for this many days is told on its Security pages that its university ' +
      'account may have ended, and to add a password (nothing is ever deleted for it). Longer than a session lasts (a year), ' +
      'so a student who stays signed in is not told',
  }),
  NOTIFICATION_RETENTION_DAYS: integer({
    group: 'notifications',
    default: 90,
    min: 1,
    about: 'notifications older than this many days are deleted (every hour), read or not',
  }),
  VAPID_PUBLIC_KEY: text({
    group: 'notifications',
    default: undefined,
    shown: 'made at first start',
    about:
      "with `VAPID_PRIVATE_KEY`: the push key pair (base64url, as `npx web-push generate-vapid-keys` prints); changing it ends every device's push subscription",
  }),
  VAPID_PRIVATE_KEY: text({
    group: 'notifications',
    default: undefined,
    shown: 'made at first start',
    about: 'the private half of the push key pair',
  }),
  VAPID_SUBJECT: text({
    group: 'notifications',
    default: undefined,
    shown: 'an https `PUBLIC_URL`',
    about: 'how push services reach the operator: a `mailto:` or `https:` address (else `mailto:webmaster@localhost`)',
  }),
  PUSH_SERVICES: custom({
    group: 'notifications',
    shown: "the four browser makers' services",
    about:
      'the push services a device may subscribe through, as comma-separated origins, `*.` allowed at the start of a host ' +
      '(default: `https://fcm.googleapis.com`, `https://updates.push.services.mozilla.com`, `https://*.notify.windows.com`, ' +
      '`https://*.push.apple.com`): the server sends requests there, so no other address is accepted',
    read: pushServiceList('PUSH_SERVICES'),
  }),
  REGISTRATION: oneOf(REGISTRATION_MODES, {
    group: 'accounts',
    default: 'open',
    about:
      'who may sign up: `open` (anyone), `domains` (addresses at `REGISTRATION_EMAIL_DOMAINS` only), `invite` (an invite code ' +
      'from an admin: `npm run admin -- invite` or `/moderation/invites`), `sso` (only through single sign-on, `OIDC_*`), ' +
      "`closed` ('Sign-ups are closed.'). Existing accounts " +
      'sign in whatever it says. Any other value refuses to start (a typo must not open a site meant to be by invitation)',
  }),
  REGISTRATION_EMAIL_DOMAINS: custom({
    group: 'accounts',
    shown: '—',
    about:
      'with `REGISTRATION=domains` (required there): a comma-separated list of `uni.example.edu` (that domain only) and ' +
      '`*.uni.example.edu` (any subdomain of it, not the domain itself); the create-account form shows the list',
    read: domainList('REGISTRATION_EMAIL_DOMAINS'),
  }),
  TRUST_PROXY: custom({
    group: 'server',
    shown: '`false`',
    about:
      '`true` behind one reverse proxy (client address, HTTPS cookies; only the address the proxy appended is believed), a ' +
      "number of proxy hops, or the proxies' addresses/CIDRs",
    read: trustProxySetting,
  }),
  LOG_LEVEL: oneOf(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'], {
    group: 'server',
    default: 'info',
    about:
      '`trace`, `debug`, `info`, `warn`, `error`, `fatal`, `silent`; JSON lines on standard output, security events ' +
      '(sign-ins, failures, 429s, refused writes) are the lines with a `security` field',
  }),
  METRICS_TOKEN: custom({
    group: 'server',
    shown: '—',
    about:
      'serve Prometheus metrics at `GET /metrics` on the public port to `Authorization: Bearer <token>` (16+ characters, e.g. ' +
      '`openssl rand -hex 24`); without it, or with another token, `/metrics` is a 404 like any missing path',
    read: metricsToken,
  }),
  METRICS_PORT: integer({
    group: 'server',
    default: undefined,
    min: 1,
    about: 'serve Prometheus metrics at `GET /metrics` without a token on this port of `127.0.0.1` only (a local agent or sidecar)',
  }),
  SESSION_CACHE_MS: integer({
    group: 'database',
    default: 60_000,
    about:
      "embedded database only: how long a session's user is remembered between requests (`0` = off); sign-out, password " +
      'changes, suspensions and profile changes apply at once',
  }),
  CACHE_TTL_MS: integer({
    group: 'processes',
    default: 60_000,
    about:
      'how long a shared read (home feed window, post pages, related posts, profiles, whom a viewer follows, post search ' +
      'answers) may be reused, as a safety net: every change makes what it affects stale at once, on every process (see ' +
      'Caching; `0` = off). Replaces `FEED_CACHE_MS`, `SEARCH_CACHE_MS` and `READ_CACHE_MS`, which the server now refuses',
  }),
  CACHE_MAX_MB: integer({
    group: 'processes',
    default: 64,
    about:
      'memory the shared read cache may hold (feed window, post pages, profiles, search answers, ...), least recently used ' +
      'dropped first',
  }),
  EMBEDDED_VACUUM_MS: integer({
    group: 'database',
    default: 3_600_000,
    about:
      'embedded database only: how often the server runs `VACUUM` (PGlite has no autovacuum; ~40 ms on a settled database of ' +
      '100k posts)',
  }),
  EMBEDDED_ANALYZE_MS: integer({
    group: 'database',
    default: 86_400_000,
    about: "embedded database only: how often the server refreshes the planner's statistics (`ANALYZE`, ~0.7 s at 100k posts)",
  }),
  RATE_LIMIT_LOGIN_PER_IP: integer({
    group: 'limits',
    default: 100,
    about:
      'failed sign-ins per address per 15 minutes, whatever the account (successful ones do not count; an IPv6 /64 is one ' +
      'address); past them a wrong password gets 429 but a right one still signs in (next row); also wrong Delete Account ' +
      'passwords per address, counted apart',
  }),
  RATE_LIMIT_LOGIN_CHECKS_PER_IP: integer({
    group: 'limits',
    default: 1000,
    about:
      'further failed sign-ins per address per 15 minutes once `RATE_LIMIT_LOGIN_PER_IP` is used up: passwords are still ' +
      'checked (a right one signs in, a wrong one gets 429), so one guesser cannot lock a campus NAT out; past these none is ' +
      "checked (bounds an address's argon2 work); `0` = none",
  }),
  RATE_LIMIT_LOGIN_FAILURES: integer({
    group: 'limits',
    default: 10,
    about:
      'failed sign-ins per address for one username, or one e-mail, as typed (each counted apart) per 15 minutes; then 429, ' +
      'even for the right password; also wrong Delete Account passwords per account (from any address), counted apart',
  }),
  RATE_LIMIT_REGISTER_PER_IP: integer({ group: 'limits', default: 20, about: 'new accounts per address per 15 minutes' }),
  RATE_LIMIT_PASSWORD_CHANGES: integer({
    group: 'limits',
    default: 10,
    about:
      'Change Password attempts one account may make per 15 minutes (each checks the current password and hashes the new one); ' +
      'changes of e-mail address (each checks the password) count apart, against the same number',
  }),
  RATE_LIMIT_EXPORTS_PER_USER: integer({
    group: 'limits',
    default: 5,
    about: 'Download My Data ZIPs one account may download per hour (each reads every photo of the account); more are answered 429',
  }),
  RATE_LIMIT_REPORTS_PER_USER: integer({
    group: 'limits',
    default: 20,
    about:
      "reports one account may send per hour (a repeat of an open report counts too); more are answered 429 ('You have sent " +
      "a lot of reports. Try again later.')",
  }),
  RATE_LIMIT_REPORTS_PER_IP: integer({
    group: 'limits',
    default: 100,
    about:
      'reports from one address per hour, whatever the account (one address can make about 80 fresh accounts an hour); more ' +
      "are answered 429 ('Many reports have come from your network this hour. Try again later.')",
  }),
  REPORT_NEW_ACCOUNT_MS: integer({
    group: 'limits',
    default: 86_400_000,
    about:
      'reports sent by an account younger than this rank after all the others in the moderation queue, marked "new account" ' +
      '(`0` = none)',
  }),
  RATE_LIMIT_BLOCKS_PER_USER: integer({
    group: 'limits',
    default: 60,
    about:
      "blocks and unblocks one account may make per hour; more are answered 429 ('You have blocked or unblocked a lot of " +
      "accounts. Try again later.')",
  }),
  RATE_LIMIT_BOARD_WRITES_PER_USER: integer({
    group: 'limits',
    default: 600,
    about:
      'saves, removals and board or membership changes one account may make per hour (boards); more are answered 429 ' +
      "('You have saved a lot of posts. Try again later.')",
  }),
  EXPORT_CONCURRENCY: integer({
    group: 'exports',
    default: 2,
    atLeast: 1,
    about:
      'Download My Data ZIPs one process writes at once (`0` means 1); one more is answered 503 with `Retry-After: 30` at once ' +
      '(not counted against the account), rather than held waiting with nothing to show',
  }),
  EXPORT_STALL_MS: integer({
    group: 'exports',
    default: 30_000,
    atLeast: 1,
    about:
      'a Download My Data reader that has taken nothing for this long (ms) is cut off and its export slot freed, so idle ' +
      'connections cannot hold the slots; an account has one download at a time (a second is answered 409)',
  }),
  RATE_LIMIT_FORGOT_PER_IP: integer({
    group: 'limits',
    default: 10,
    about: '"Forgot password?" requests per address per 15 minutes, whatever they name (then 429)',
  }),
  RATE_LIMIT_FORGOT_PER_ACCOUNT: integer({
    group: 'limits',
    default: 3,
    about: 'reset mails one account is sent per 15 minutes, from any address; more requests get the very same answer and send nothing',
  }),
  RATE_LIMIT_RESET_PER_IP: integer({ group: 'limits', default: 30, about: 'reset link checks and uses per address per 15 minutes' }),
  RATE_LIMIT_VERIFY_PER_IP: integer({
    group: 'limits',
    default: 30,
    about: 'e-mail verification link and code checks per address per 15 minutes (then 429)',
  }),
  RATE_LIMIT_VERIFY_MAILS_PER_ACCOUNT: integer({
    group: 'limits',
    default: 5,
    about: 'verification mails one account is sent per 15 minutes (sign-up, **Resend**, a new address), then 429',
  }),
  RATE_LIMIT_VERIFY_MAILS_PER_ADDRESS: integer({
    group: 'limits',
    default: 3,
    about: 'verification mails one e-mail address is sent per 15 minutes, by any account, so nobody can flood an inbox by naming it',
  }),
  RATE_LIMIT_PUSH_DEVICES_PER_USER: integer({
    group: 'limits',
    default: 30,
    about: 'push subscriptions one account may add per hour (**Turn on push notifications**), then 429',
  }),
  RATE_LIMIT_POSTS_PER_USER: integer({ group: 'limits', default: 30, about: 'posts one account may create per hour' }),
  RATE_LIMIT_ICONS_PER_USER: integer({ group: 'limits', default: 10, about: 'profile picture changes one account may make per hour' }),
  RATE_LIMIT_SEARCH_PER_IP: integer({
    group: 'limits',
    default: 300,
    about: 'searches (posts and people count together) per address per minute',
  }),
  RATE_LIMIT_SEARCH_PER_USER: integer({
    group: 'limits',
    default: 120,
    about: 'searches by one signed-in account per minute, from any address',
  }),
  SEARCH_CONCURRENCY: integer({
    group: 'search',
    default: undefined,
    atLeast: 1,
    shown: '`2` (embedded), `4` (PostgreSQL)',
    about:
      'post searches one process runs at once that no cache answers (people search is one index range scan and never waits); ' +
      'the others wait in line (the embedded database runs one statement at a time; `0` means 1)',
  }),
  SEARCH_QUEUE: integer({
    group: 'search',
    default: 32,
    about: 'searches that may wait for their turn; more are answered 503 (`Retry-After: 1`)',
  }),
  SEARCH_STATEMENT_TIMEOUT_MS: integer({
    group: 'search',
    default: 2_000,
    about:
      'PostgreSQL only: a search statement running longer is cancelled and answered 503 (`0` = no limit; the embedded ' +
      'database cannot cancel a statement, its searches are bounded by construction)',
  }),
  REQUEST_TIMEOUT_MS: integer({
    group: 'server',
    default: 30_000,
    about: 'a request (headers and body) not received in full by then is answered 408 and closed',
  }),
  HEADERS_TIMEOUT_MS: integer({
    group: 'server',
    default: 10_000,
    about: 'the same for the request headers alone (at most `REQUEST_TIMEOUT_MS`)',
  }),
  // Above the 60 s idle timeout of common load balancers, so they close first (Fastify's default).
  KEEP_ALIVE_TIMEOUT_MS: integer({ group: 'server', default: 72_000, about: 'idle keep-alive connections are closed after this' }),
  IMAGE_CONCURRENCY: integer({
    group: 'images',
    default: undefined,
    min: 1,
    shown: 'cores − 1, at most (`UV_THREADPOOL_SIZE` − 2) / 2 − 1, ≥ 1: 1 via `npm start`',
    about:
      "images of any cost decoded at once by this process (2 of libuv's threads each; 2 are left to sign-ins and media reads, " +
      'or it refuses to start and says how far to raise `UV_THREADPOOL_SIZE`); with 2 threads more (`npm start`), one more ' +
      'lane takes only cheap uploads (a phone JPEG), so a photo never waits for a costly one',
  }),
  // About five seconds of work for one core at ~0.3 s a photo.
  IMAGE_QUEUE_LENGTH: integer({
    group: 'images',
    default: 16,
    about:
      "uploads that may wait for their turn; more are answered 503 with `Retry-After` ('Lots of photos are being uploaded " +
      "right now. Try again in a moment.')",
  }),
  UV_THREADPOOL_SIZE: custom({
    group: 'images',
    shown: '`6` with `npm start`, else `4`',
    about:
      "Node's own: libuv's thread pool, shared by image work, password hashing and file reads (4 leaves no cheap image lane). " +
      'Node reads it when the process starts, so set it in the environment (setting it from the code is too late)',
    // As Node reads it (default 4, at most 1024): the server only needs to know the pool's size.
    read: (value) => {
      const size = Number(value);
      return Number.isInteger(size) && size > 0 ? Math.min(size, 1024) : 4;
    },
  }),
  ORPHAN_FILE_AGE_MS: integer({
    group: 'storage',
    default: 3_600_000,
    about:
      'images an upload or deletion cut short by a crash left behind are deleted once this old (the embedded database deletes ' +
      'them all at start-up)',
  }),
} satisfies Record<string, Setting<unknown>>;

export type SettingName = keyof typeof SETTINGS;
export type SettingValues = { [Name in SettingName]: SettingValue<(typeof SETTINGS)[Name]> };

/** Settings a release replaced: a server that still sets one would not do what its operator expects. */
export const REPLACED_SETTINGS: Record<string, SettingName> = {
  FEED_CACHE_MS: 'CACHE_TTL_MS',
  SEARCH_CACHE_MS: 'CACHE_TTL_MS',
  READ_CACHE_MS: 'CACHE_TTL_MS',
};

const ALL_SETTINGS = Object.keys(SETTINGS) as SettingName[];

/**
 * Reads the environment (all settings, or only `names`). Refuses, naming each variable that is
 * wrong and why, one line each: a server must not start on a value it would misread.
 */
export function readSettings(env: NodeJS.ProcessEnv): SettingValues;
export function readSettings<Name extends SettingName>(env: NodeJS.ProcessEnv, names: readonly Name[]): Pick<SettingValues, Name>;
export function readSettings(env: NodeJS.ProcessEnv, names: readonly SettingName[] = ALL_SETTINGS): Partial<SettingValues> {
  const values: Record<string, unknown> = {};
  const refusals: string[] = [];
  if (names === ALL_SETTINGS) {
    for (const [old, replacement] of Object.entries(REPLACED_SETTINGS)) {
      if (env[old] !== undefined) {
        refusals.push(`${old} is no longer read: set ${replacement} instead (README, "Caching": changes now reach every cache at once)`);
      }
    }
  }
  for (const name of names) {
    const result = SETTINGS[name].schema(name).safeParse(env[name]);
    // The first reason only: a value can fail two checks (`-1` is neither ≥ 0 nor ≥ 1).
    if (result.success) values[name] = result.data;
    else refusals.push(...result.error.issues.slice(0, 1).map((issue) => issue.message));
  }
  if (refusals.length > 0) throw new Error(refusals.join('\n'));
  return values;
}

/** PUBLIC_URL as an origin (no path, no trailing slash); refused unless http(s) and nothing more. */
function publicUrl(value: string | undefined): string | undefined | Refusal {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return new Refusal(`PUBLIC_URL must be a URL like https://dorm.example.edu, got ${JSON.stringify(value)}`);
  }
  if (!['http:', 'https:'].includes(url.protocol) || url.username || url.password || url.pathname !== '/' || url.search || url.hash) {
    return new Refusal(`PUBLIC_URL must be the site's origin only, like https://dorm.example.edu, got ${JSON.stringify(value)}`);
  }
  return url.origin;
}

export type TrustProxy = boolean | string | ((address: string, hop: number) => boolean);

/** Long enough not to be guessed at the rate a port answers requests. */
export const METRICS_TOKEN_MIN_LENGTH = 16;

function metricsToken(value: string | undefined): string | undefined | Refusal {
  if (value === undefined) return undefined;
  if (value.length < METRICS_TOKEN_MIN_LENGTH) return new Refusal(`METRICS_TOKEN must be at least ${METRICS_TOKEN_MIN_LENGTH} characters`);
  return value;
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

/** A list of domains (REGISTRATION_EMAIL_DOMAINS, OIDC_ALLOWED_DOMAINS), every entry a domain or `*.` and one. */
function domainList(name: string) {
  return (value: string | undefined): string[] | Refusal => {
    const entries = (value ?? '')
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const bad = entries.find((entry) => !isDomainEntry(entry));
    if (bad === undefined) return entries;
    return new Refusal(`${name}: ${JSON.stringify(bad)} is not a domain (uni.example.edu) or any subdomain of one (*.uni.example.edu)`);
  };
}

/** PUSH_SERVICES: origins of push services (notifications/push-services.ts); unset: the browser makers'. */
function pushServiceList(name: string) {
  return (value: string | undefined): string[] | Refusal => {
    if (value === undefined) return DEFAULT_PUSH_SERVICES;
    const entries = value
      .split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '');
    const origins = entries.map(pushServiceEntry);
    const bad = entries.find((_entry, index) => origins[index] === undefined);
    if (bad !== undefined)
      return new Refusal(
        `${name}: ${JSON.stringify(bad)} is not an https origin (https://push.example.com, https://*.example.com) or a loopback http one`,
      );
    return origins as string[];
  };
}

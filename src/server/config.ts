import path from 'node:path';
import { DEFAULT_APP_NAME } from '../shared/app-name.js';

export interface RateLimitConfig {
  /** Sign-in attempts from one address, whatever the account, per window. */
  loginPerIp: number;
  /** Failed sign-ins for one account from one address, per window. */
  loginFailuresPerAccount: number;
  /** New accounts from one address per window. */
  registerPerIp: number;
  windowMs: number;
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
  appName: string;
  /** Built client (index.html + assets); served when it exists. */
  clientDir: string;
  /** Set behind a reverse proxy so the client address and HTTPS are read from X-Forwarded-*. */
  trustProxy: boolean;
  logLevel: string;
  rateLimits: RateLimitConfig;
  /** How long the newest posts are held in memory for the home feed; 0 turns it off. */
  feedCacheMs: number;
  /** How long a session's user is remembered (embedded database only); 0 turns it off. */
  sessionCacheMs: number;
}

export const DEFAULT_RATE_LIMITS: RateLimitConfig = {
  loginPerIp: 100,
  loginFailuresPerAccount: 10,
  registerPerIp: 20,
  windowMs: 15 * 60 * 1000,
};

function integer(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`${name} must be a non-negative integer`);
  return parsed;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
    appName: env.APP_NAME || DEFAULT_APP_NAME,
    clientDir: path.resolve(env.CLIENT_DIR || 'dist/client'),
    trustProxy: env.TRUST_PROXY === 'true' || env.TRUST_PROXY === '1',
    logLevel: env.LOG_LEVEL || 'info',
    feedCacheMs: integer(env.FEED_CACHE_MS, 1000, 'FEED_CACHE_MS'),
    sessionCacheMs: integer(env.SESSION_CACHE_MS, 60_000, 'SESSION_CACHE_MS'),
    rateLimits: {
      loginPerIp: integer(env.RATE_LIMIT_LOGIN_PER_IP, DEFAULT_RATE_LIMITS.loginPerIp, 'RATE_LIMIT_LOGIN_PER_IP'),
      loginFailuresPerAccount: integer(
        env.RATE_LIMIT_LOGIN_FAILURES,
        DEFAULT_RATE_LIMITS.loginFailuresPerAccount,
        'RATE_LIMIT_LOGIN_FAILURES',
      ),
      registerPerIp: integer(env.RATE_LIMIT_REGISTER_PER_IP, DEFAULT_RATE_LIMITS.registerPerIp, 'RATE_LIMIT_REGISTER_PER_IP'),
      windowMs: DEFAULT_RATE_LIMITS.windowMs,
    },
  };
}

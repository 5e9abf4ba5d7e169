import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { refusal } from '../helpers/config.js';
import { DEFAULT_RATE_LIMITS, DEFAULT_TIMEOUTS, loadConfig } from '../../src/server/config.js';

describe('a setting the server would misread stops it, naming the variable', () => {
  it('a number out of range, or no number at all', () => {
    expect(refusal({ PORT: '-1' })).toBe('PORT must be a non-negative integer');
    expect(refusal({ RATE_LIMIT_LOGIN_PER_IP: '1.5' })).toBe('RATE_LIMIT_LOGIN_PER_IP must be a non-negative integer');
    expect(refusal({ CACHE_MAX_MB: '64MB' })).toBe('CACHE_MAX_MB must be a non-negative integer');
    expect(refusal({ IMAGE_CONCURRENCY: '0' })).toBe('IMAGE_CONCURRENCY must be at least 1');
    // One reason a variable, though -1 fails both checks.
    expect(refusal({ IMAGE_CONCURRENCY: '-1' })).toBe('IMAGE_CONCURRENCY must be a non-negative integer');
  });

  it('a word that is not one of the choices, listing them', () => {
    expect(refusal({ LOG_LEVEL: 'verbose' })).toBe(
      'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "verbose"',
    );
    expect(refusal({ REGISTRATION: 'invites' })).toBe('REGISTRATION must be one of open, domains, invite, sso, closed, got "invites"');
  });

  it('prepared statements are on or off, nothing else', () => {
    expect(refusal({ DATABASE_PREPARED_STATEMENTS: 'maybe' })).toBe('DATABASE_PREPARED_STATEMENTS must be one of on, off, got "maybe"');
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: 'off' }).databasePreparedStatements).toBe(false);
    expect(loadConfig({ DATABASE_PREPARED_STATEMENTS: ' ON ' }).databasePreparedStatements).toBe(true);
  });

  it('a URL of the wrong kind', () => {
    expect(refusal({ PUBLIC_URL: 'dorm.example.edu' })).toBe(
      'PUBLIC_URL must be a URL like https://dorm.example.edu, got "dorm.example.edu"',
    );
    expect(refusal({ PUBLIC_URL: 'https://dorm.example.edu/app' })).toBe(
      'PUBLIC_URL must be the site\'s origin only, like https://dorm.example.edu, got "https://dorm.example.edu/app"',
    );
    expect(refusal({ PUBLIC_URL: 'https://dorm.example.edu', SMTP_URL: 'http://mail.example.edu' })).toBe(
      'SMTP_URL must start with smtp:// or smtps://',
    );
  });

  it('every wrong variable at once, one line each', () => {
    expect(refusal({ PORT: 'x', LOG_LEVEL: 'loud', READ_CACHE_MS: '5' })).toBe(
      [
        'READ_CACHE_MS is no longer read: set CACHE_TTL_MS instead (README, "Caching": changes now reach every cache at once)',
        'PORT must be a non-negative integer',
        'LOG_LEVEL must be one of trace, debug, info, warn, error, fatal, silent, got "loud"',
      ].join('\n'),
    );
  });

  it('starts on what it reads; empty is unset', () => {
    expect(
      refusal({ PORT: '8080', LOG_LEVEL: ' WARN ', PUBLIC_URL: 'https://dorm.example.edu', SMTP_URL: 'smtps://mail:465' }),
    ).toBeUndefined();
    expect(loadConfig({ PORT: '', LOG_LEVEL: ' WARN ' })).toMatchObject({ port: 3000, logLevel: 'warn' });
  });
});

describe('defaults', () => {
  it('an empty environment: one process on the embedded database, listening on every address at 3000', () => {
    expect(loadConfig({})).toEqual({
      port: 3000,
      host: '0.0.0.0',
      dataDir: path.resolve('data'),
      databaseUrl: undefined,
      databasePoolSize: 10,
      databasePreparedStatements: true,
      s3: undefined,
      redisUrl: undefined,
      redisKeyPrefix: 'dormboard:',
      appName: 'dormboard',
      publicUrl: undefined,
      serverSecret: undefined,
      mail: undefined,
      registration: { mode: 'open', emailDomains: [] },
      requireVerifiedEmail: false,
      clientDir: path.resolve('dist/client'),
      trustProxy: false,
      logLevel: 'info',
      searchCost: { concurrency: 2, queue: 32, statementTimeoutMs: 2_000 },
      exportConcurrency: 2,
      exportStallMs: 30_000,
      cacheTtlMs: 60_000,
      embeddedMaintenance: { vacuumMs: 3_600_000, analyzeMs: 86_400_000 },
      sessionCacheMs: 60_000,
      reportNewAccountMs: 86_400_000,
      cacheMaxBytes: 64 * 1024 * 1024,
      rateLimits: DEFAULT_RATE_LIMITS,
      timeouts: { requestMs: 30_000, headersMs: 10_000, keepAliveMs: 72_000 },
      databaseConnectTimeoutMs: 5_000,
      notifications: {
        retentionDays: 90,
        vapidKeys: undefined,
        // The browser makers' push services only (config/push-services.ts), and a reachable subject.
        pushServices: [
          'https://fcm.googleapis.com',
          'https://updates.push.services.mozilla.com',
          'https://*.notify.windows.com',
          'https://*.push.apple.com',
        ],
        vapidSubject: 'mailto:webmaster@localhost',
      },
      orphanFileAgeMs: 3_600_000,
      images: expect.objectContaining({ concurrency: 1, queueLength: 16 }),
      passwordHashing: { memoryCost: 19_456, timeCost: 2 },
    });
    expect(DEFAULT_TIMEOUTS).toEqual({ requestMs: 30_000, headersMs: 10_000, keepAliveMs: 72_000 });
  });

  it('the rate limits, over 15 minutes for accounts and sign-ins, an hour for uploads and reports, a minute for searches', () => {
    const minute = 60_000;
    expect(DEFAULT_RATE_LIMITS).toEqual({
      loginPerIp: 100,
      loginChecksPerIp: 1000,
      loginFailuresPerAccount: 10,
      registerPerIp: 20,
      passwordChangesPerUser: 10,
      forgotPerIp: 10,
      forgotPerAccount: 3,
      resetPerIp: 30,
      verifyPerIp: 30,
      verifyMailsPerAccount: 5,
      verifyMailsPerAddress: 3,
      windowMs: 15 * minute,
      postsPerUser: 30,
      iconChangesPerUser: 10,
      uploadWindowMs: 60 * minute,
      searchPerIp: 300,
      searchPerUser: 120,
      searchWindowMs: minute,
      exportsPerUser: 5,
      exportWindowMs: 60 * minute,
      reportsPerUser: 20,
      reportsPerIp: 100,
      reportWindowMs: 60 * minute,
      blocksPerUser: 60,
      blockWindowMs: 60 * minute,
      boardWritesPerUser: 600,
      boardWriteWindowMs: 60 * minute,
      pushDevicesPerUser: 30,
      pushDeviceWindowMs: 60 * minute,
    });
  });

  it('defaults that depend on other settings', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://db/dormboard' }).searchCost.concurrency).toBe(4);
    expect(loadConfig({ S3_BUCKET: 'media' }).s3).toEqual({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: undefined,
      forcePathStyle: false,
      prefix: '',
    });
    expect(loadConfig({ S3_BUCKET: 'media', AWS_REGION: 'eu-west-1' }).s3?.region).toBe('eu-west-1');
    expect(loadConfig({ SMTP_URL: 'smtp://mail', PUBLIC_URL: 'https://dorm.example.edu' }).mail?.from).toBe(
      'dormboard <no-reply@dorm.example.edu>',
    );
    // Zero would stop all exports and searches: it means one.
    expect(loadConfig({ EXPORT_CONCURRENCY: '0', SEARCH_CONCURRENCY: '0' })).toMatchObject({
      exportConcurrency: 1,
      searchCost: { concurrency: 1 },
    });
  });
});

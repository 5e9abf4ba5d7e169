import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { missingRecommendedSettings } from '../../src/server/config/recommended-settings.js';

/** What the server logs at start for this environment: the settings named, one line each. */
const missing = (env: NodeJS.ProcessEnv) => missingRecommendedSettings(loadConfig(env));
const named = (env: NodeJS.ProcessEnv) => missing(env).map((line) => line.setting);

/** All of them set, as docs/deploy.md's PostgreSQL setup behind nginx has them. */
const PRODUCTION = {
  PUBLIC_URL: 'https://dorm.example.edu',
  TRUST_PROXY: 'true',
  SMTP_URL: 'smtp://dormboard:secret@smtp.example.edu:587',
  DATABASE_URL: 'postgres://dormboard@db.internal/dormboard',
  SERVER_SECRET: 'x'.repeat(32),
};

describe('the recommended settings a server lacks, one log line each, saying what it affects', () => {
  it('none when all are set', () => {
    expect(missing(PRODUCTION)).toEqual([]);
  });

  it('PUBLIC_URL unset: reset links, mail, origin checks', () => {
    const [line, ...others] = missing({ ...PRODUCTION, PUBLIC_URL: undefined, SMTP_URL: undefined });
    expect(line!.setting).toBe('PUBLIC_URL');
    for (const affected of ['reset-link', 'Forgot password?', 'Sec-Fetch-Site', 'Host header', 'https://dorm.example.edu']) {
      expect(line!.message).toContain(affected);
    }
    expect(others.map((other) => other.setting)).toEqual(['SMTP_URL']);
  });

  it('TRUST_PROXY unset while PUBLIC_URL is https (a proxy ends TLS): client addresses, rate limits, cookies', () => {
    const [line, ...others] = missing({ ...PRODUCTION, TRUST_PROXY: undefined });
    expect(line!.setting).toBe('TRUST_PROXY');
    for (const affected of ['https://dorm.example.edu', "proxy's address", 'rate limits', 'Secure', 'TRUST_PROXY=true']) {
      expect(line!.message).toContain(affected);
    }
    expect(others).toEqual([]);
    // `false` is what unset means.
    expect(named({ ...PRODUCTION, TRUST_PROXY: 'false' })).toEqual(['TRUST_PROXY']);
  });

  it('no TRUST_PROXY line for a plain-http PUBLIC_URL (no proxy need end TLS) or when PUBLIC_URL is unset (its own line)', () => {
    expect(named({ ...PRODUCTION, PUBLIC_URL: 'http://localhost:3000', TRUST_PROXY: undefined })).toEqual([]);
    expect(named({ ...PRODUCTION, PUBLIC_URL: undefined, SMTP_URL: undefined, TRUST_PROXY: undefined })).toEqual([
      'PUBLIC_URL',
      'SMTP_URL',
    ]);
  });

  it('SMTP_URL unset: no "Forgot password?" mail', () => {
    const lines = missing({ ...PRODUCTION, SMTP_URL: undefined });
    expect(lines.map((line) => line.setting)).toEqual(['SMTP_URL']);
    expect(lines[0]!.message).toContain('"Forgot password?"');
    expect(lines[0]!.message).toContain('npm run admin -- reset-link');
  });

  it('SERVER_SECRET unset on PostgreSQL (several processes must share it); not on the embedded database', () => {
    const lines = missing({ ...PRODUCTION, SERVER_SECRET: undefined });
    expect(lines.map((line) => line.setting)).toEqual(['SERVER_SECRET']);
    expect(lines[0]!.message).toContain('every process sharing this database must have the same secret');
    expect(named({ ...PRODUCTION, SERVER_SECRET: undefined, DATABASE_URL: undefined })).toEqual([]);
  });

  it('a bare local start (npm start, nothing set) names PUBLIC_URL and SMTP_URL, each on one line', () => {
    const lines = missing({});
    expect(lines.map((line) => line.setting)).toEqual(['PUBLIC_URL', 'SMTP_URL']);
    for (const line of lines) expect(line.message).not.toContain('\n');
  });
});

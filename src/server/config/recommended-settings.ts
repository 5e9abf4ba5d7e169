import type { Config } from '../config.js';

/** A setting a production server should have and this one lacks: one log line, saying what it affects. */
export interface MissingSetting {
  setting: 'PUBLIC_URL' | 'TRUST_PROXY' | 'SMTP_URL' | 'SERVER_SECRET';
  message: string;
}

type Settings = Pick<Config, 'publicUrl' | 'trustProxy' | 'mail' | 'serverSecret' | 'databaseUrl'>;

/**
 * The recommended settings this configuration leaves unset, as main.ts logs them at start (one
 * line each). Only what the settings themselves show: whether requests come through a proxy
 * cannot be known before one arrives, but an https PUBLIC_URL means one (the server speaks
 * plain HTTP), so TLS is ended in front of it.
 */
export function missingRecommendedSettings(config: Settings): MissingSetting[] {
  const missing: MissingSetting[] = [];
  if (!config.publicUrl) {
    missing.push({
      setting: 'PUBLIC_URL',
      message:
        'PUBLIC_URL is not set: npm run admin -- reset-link makes no links, "Forgot password?" mail cannot be turned on (SMTP_URL needs it), ' +
        'and writes from browsers that send no Sec-Fetch-Site are checked against the Host header (X-Forwarded-Host with TRUST_PROXY). ' +
        'Set PUBLIC_URL to the address users reach the site at, like https://dorm.example.edu.',
    });
  } else if (new URL(config.publicUrl).protocol === 'https:' && config.trustProxy === false) {
    missing.push({
      setting: 'TRUST_PROXY',
      message:
        `TRUST_PROXY is not set, yet PUBLIC_URL is ${config.publicUrl}, so a proxy ends TLS in front of this server: every request ` +
        "then comes from the proxy's address, so per-address rate limits (sign-ins, sign-ups, searches, reports) count all " +
        'users together, the security log names the proxy, and session cookies are neither Secure nor __Host-. Set TRUST_PROXY=true ' +
        'behind one proxy (or its hops, or its addresses).',
    });
  }
  if (!config.mail) {
    missing.push({
      setting: 'SMTP_URL',
      message:
        'SMTP_URL is not set: no mail is sent, so the sign-in screen offers no "Forgot password?" and a user who forgot ' +
        'theirs needs an operator (npm run admin -- reset-link). Set SMTP_URL to smtp://user:pass@host:587 to turn it on.',
    });
  }
  // The embedded database is one process; several processes on PostgreSQL must share the secret.
  if (config.databaseUrl && !config.serverSecret) {
    missing.push({
      setting: 'SERVER_SECRET',
      message:
        'SERVER_SECRET is not set: using DATA_DIR/server-secret; every process sharing this database must have the same ' +
        'secret, or they disagree on which names deleted accounts hold. Set SERVER_SECRET (openssl rand -base64 32), ' +
        'the same in each.',
    });
  }
  return missing;
}

import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { localServerEnv } from './scripts/local-server';
import { mailServerPortFor, OIDC, smtpPortFor } from './tests/e2e/mail';
import { invitePortFor } from './tests/e2e/registration';

const PORT = Number(process.env.E2E_PORT) || 3100;
/** A second server that nobody posts to: what a brand-new install looks like. */
const FRESH_PORT = PORT + 1;
const FRESH_URL = `http://127.0.0.1:${FRESH_PORT}`;
/** A third with REGISTRATION=invite (issue 17): see tests/e2e/registration.ts. */
const INVITE_PORT = invitePortFor(PORT);
/** A fourth with mail on ("Forgot password?", verified addresses): see tests/e2e/mail.ts. */
const MAIL_PORT = mailServerPortFor(PORT);

const PHONE = { ...devices['Pixel 7'], viewport: { width: 390, height: 844 } };
const DESKTOP = { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } };

/**
 * The build under test: `dist` (npm run test:e2e builds it), or another build's directory, so
 * that several checkouts' builds can be tested side by side (`E2E_DIST=.e2e-dist/mine`).
 */
const DIST = path.resolve(process.env.E2E_DIST || 'dist');

function server(port: number, { mail = false, env = {} }: { mail?: boolean; env?: Record<string, string> } = {}) {
  // A fresh embedded database for every run, so tests never depend on leftovers.
  const dataDir = path.resolve('.e2e-data', String(port));
  return {
    // The production build (npm run test:e2e builds it first).
    command: `rm -rf "${dataDir}" && node "${path.join(DIST, 'server/main.js')}"`,
    url: `http://127.0.0.1:${port}/api/openapi.json`,
    reuseExistingServer: false,
    timeout: 60_000,
    env: { ...localServerEnv(port, dataDir, DIST, mail ? { smtpPort: smtpPortFor(PORT) } : undefined), ...env },
  };
}

export default defineConfig({
  testDir: 'tests/e2e',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? 'line' : 'list',
  // A guard against hangs, not a judge of speed: a single-screen test takes 5–25 s here and up to
  // 2.5× that on a slower machine of this kind. Walks through several screens get WALK_TIMEOUT.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
  },
  // Every spec at both sizes the app is used at: a phone and a laptop. The fresh-install spec
  // gets its own server (nobody posts there), so each size has a project for it too.
  projects: [
    { name: 'phone', testIgnore: /fresh\.spec\.ts/, use: PHONE },
    { name: 'desktop', testIgnore: /fresh\.spec\.ts/, use: DESKTOP },
    { name: 'fresh-install-phone', testMatch: /fresh\.spec\.ts/, use: { ...PHONE, baseURL: FRESH_URL } },
    { name: 'fresh-install-desktop', testMatch: /fresh\.spec\.ts/, use: { ...DESKTOP, baseURL: FRESH_URL } },
  ],
  // The mail server mails ("Forgot password?", verification) to the SMTP server global-setup.ts starts.
  globalSetup: './tests/e2e/global-setup.ts',
  webServer: [
    server(PORT),
    server(FRESH_PORT),
    server(INVITE_PORT, { env: { REGISTRATION: 'invite' } }),
    // ...and single sign-on with the provider global-setup.ts starts (issue 29).
    server(MAIL_PORT, {
      mail: true,
      env: {
        OIDC_ISSUER: OIDC.issuer(PORT),
        OIDC_CLIENT_ID: OIDC.clientId,
        OIDC_CLIENT_SECRET: OIDC.clientSecret,
        OIDC_NAME: OIDC.name,
        // The students' domain only: an alumni-… account (elsewhere) is refused (sso.spec.ts).
        OIDC_ALLOWED_DOMAINS: OIDC.domain,
      },
    }),
  ],
});

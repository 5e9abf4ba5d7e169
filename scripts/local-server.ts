import path from 'node:path';

/**
 * The environment a production build (`dist`, or another build's directory) runs with when the
 * end-to-end tests or `npm run screenshots` start it: on this machine only, a data directory of
 * its own, quiet logs, and sign-ups and sign-ins from one address allowed.
 */
export function localServerEnv(port: number, dataDir: string, dist: string, mail?: { smtpPort: number }): Record<string, string> {
  return {
    // "Forgot password?" mails through an SMTP server on this machine (the e2e run starts one).
    // Where the browser reaches it: reset links (npm run admin -- reset-link) and Origin checks.
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    ...(mail && {
      SMTP_URL: `smtp://mailer:secret@127.0.0.1:${mail.smtpPort}`,
      MAIL_FROM: 'dormboard <no-reply@127.0.0.1>',
    }),
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    CLIENT_DIR: path.join(dist, 'client'),
    LOG_LEVEL: 'warn',
    // Every account signs up from 127.0.0.1; the limits themselves are covered by the API tests.
    RATE_LIMIT_REGISTER_PER_IP: '10000',
    RATE_LIMIT_LOGIN_PER_IP: '10000',
    RATE_LIMIT_VERIFY_PER_IP: '10000',
  };
}

import fs from 'node:fs';
import path from 'node:path';
import type { ReceivedMail } from '../helpers/smtp';

/**
 * The e2e run's mail: a server of its own on E2E_PORT + 4 (mail on turns on verified addresses,
 * issue 29, which the spec's flows on the main server know nothing of) sends its mail
 * ("Forgot password?", address verification) to a real SMTP server that global-setup.ts starts
 * on E2E_PORT + 2, which writes each mail here as JSON for the specs (in other processes) to read.
 */
export const smtpPortFor = (serverPort: number) => serverPort + 2;
export const mailServerPortFor = (serverPort: number) => serverPort + 4;
/** The mail server's address, for `test.use({ baseURL })` in the specs that need mail. */
export const MAIL_URL = `http://127.0.0.1:${mailServerPortFor(Number(process.env.E2E_PORT) || 3100)}`;

/**
 * The university's sign-in (issue 29): a real OpenID provider (tests/helpers/oidc-provider.ts)
 * that global-setup.ts starts on E2E_PORT + 5, which the mail server uses for single sign-on
 * (only for addresses at OIDC.domain: OIDC_ALLOWED_DOMAINS).
 * It knows every account named `<kind>-…` of OIDC_ACCOUNT_KINDS, and vouches for its address.
 */
export const oidcPortFor = (serverPort: number) => serverPort + 5;
export const OIDC = {
  name: 'Uni Login',
  clientId: 'dormboard-e2e',
  clientSecret: 'e2e-client-secret-not-a-real-one',
  issuer: (serverPort: number) => `http://127.0.0.1:${oidcPortFor(serverPort)}`,
  domain: 'uni.example.edu',
} as const;

/**
 * The e2e provider's accounts, by the first word of their sub: a `student-…` (at OIDC.domain)
 * signs in as it should, an `alumni-…` has its address at another domain, and for the others the
 * provider's token endpoint misbehaves (global-setup.ts): an ID token signed with another key
 * (`forged`), expired (`expired`), from another issuer (`otheriss`), or no answer at all, the
 * connection cut (`down`). The provider is shared by every worker, so a test picks its failure
 * by the account it signs in as, never by stopping or changing the provider.
 */
export const OIDC_ACCOUNT_KINDS = ['student', 'alumni', 'forged', 'expired', 'otheriss', 'down'] as const;
export type OidcAccountKind = (typeof OIDC_ACCOUNT_KINDS)[number];
export const mailDirFor = (serverPort: number) => path.resolve('.e2e-data', `mail-${serverPort}`);

/**
 * The newest mail to `address` (whose text matches `containing`, when given: a new account's
 * verification mail lands first, so a later mail must be told apart from it), polled for until
 * it is there: `ms` only bounds a wait for mail that normally lands in well under a second,
 * generously enough for a loaded machine.
 */
export async function mailTo(address: string, containing?: RegExp, ms = 30_000): Promise<ReceivedMail> {
  const dir = mailDirFor(Number(process.env.E2E_PORT) || 3100);
  const deadline = Date.now() + ms;
  for (;;) {
    const mails = fs.existsSync(dir)
      ? fs
          .readdirSync(dir)
          .sort()
          .map((name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8')) as ReceivedMail)
      : [];
    const found = mails.filter((mail) => mail.to.includes(address) && (!containing || containing.test(mail.text))).at(-1);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

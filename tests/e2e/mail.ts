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
 * that global-setup.ts starts on E2E_PORT + 5, which the mail server uses for single sign-on.
 * It knows every account named `student-…` (an address at uni.example.edu it vouches for).
 */
export const oidcPortFor = (serverPort: number) => serverPort + 5;
export const OIDC = {
  name: 'Uni Login',
  clientId: 'dormboard-e2e',
  clientSecret: 'e2e-client-secret-not-a-real-one',
  issuer: (serverPort: number) => `http://127.0.0.1:${oidcPortFor(serverPort)}`,
} as const;
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

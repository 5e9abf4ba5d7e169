import fs from 'node:fs';
import path from 'node:path';
import { startOidcProvider, type TestOidcAccount } from '../helpers/oidc-provider';
import { startSmtpServer } from '../helpers/smtp';
import { mailDirFor, mailServerPortFor, OIDC, oidcPortFor, smtpPortFor } from './mail';

/** A student the e2e provider knows by any `student-…` name: the specs run in other processes. */
const STUDENT = /^student-[a-z0-9-]{1,40}$/;
const student = (sub: string): TestOidcAccount => ({
  sub,
  email: `${sub}@uni.example.edu`,
  email_verified: true,
  preferred_username: sub.replace(/-/g, '_').slice(0, 20),
});

/** Starts the run's SMTP server and OpenID provider (see mail.ts); Playwright stops them when the run ends. */
export default async function globalSetup() {
  const port = Number(process.env.E2E_PORT) || 3100;
  const dir = mailDirFor(port);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let count = 0;
  const smtp = await startSmtpServer({
    port: smtpPortFor(port),
    onMail: (mail) => fs.writeFileSync(path.join(dir, `${String((count += 1)).padStart(6, '0')}.json`), JSON.stringify(mail)),
  });
  const oidc = await startOidcProvider({
    port: oidcPortFor(port),
    clientId: OIDC.clientId,
    clientSecret: OIDC.clientSecret,
    redirectUris: [`http://127.0.0.1:${mailServerPortFor(port)}/api/auth/sso/callback`],
  });
  const known = oidc.accounts;
  known.has = (sub: string) => Map.prototype.has.call(known, sub) || STUDENT.test(sub);
  known.get = (sub: string) =>
    (Map.prototype.get.call(known, sub) as TestOidcAccount | undefined) ?? (STUDENT.test(sub) ? student(sub) : undefined);
  return async () => {
    await oidc.close();
    await smtp.close();
  };
}

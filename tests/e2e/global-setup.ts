import { generateKeyPair, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startOidcProvider, type TestOidcAccount, type TestOidcTamper, type TestOidcTokenAnswer } from '../helpers/oidc-provider';
import { startSmtpServer } from '../helpers/smtp';
import { mailDirFor, mailServerPortFor, OIDC, OIDC_ACCOUNT_KINDS, oidcPortFor, smtpPortFor, type OidcAccountKind } from './mail';

/** An account the e2e provider knows by any `<kind>-…` name (mail.ts): the specs run in other processes. */
const ACCOUNT = new RegExp(`^(${OIDC_ACCOUNT_KINDS.join('|')})-[a-z0-9-]{1,40}$`);
const kindOf = (sub: string) => ACCOUNT.exec(sub)?.[1] as OidcAccountKind | undefined;
const account = (sub: string): TestOidcAccount | undefined => {
  const kind = kindOf(sub);
  if (!kind) return undefined;
  return {
    sub,
    email: `${sub}@${kind === 'alumni' ? 'alumni.example.org' : OIDC.domain}`,
    email_verified: true,
    preferred_username: sub.replace(/-/g, '_').slice(0, 20),
  };
};

/** How the provider's token endpoint misbehaves, by kind of account (mail.ts); it answers the rest as it should. */
async function misbehaviours(): Promise<Partial<Record<OidcAccountKind, TestOidcTamper>>> {
  const { privateKey: otherKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
  const now = () => Math.floor(Date.now() / 1000);
  const withClaims = (answer: TestOidcTokenAnswer, claims: Record<string, unknown>, key?: KeyObject) => ({
    ...answer.body,
    id_token: answer.resign({ ...answer.idToken.claims, ...claims }, key),
  });
  return {
    // Its claims as they were, under the provider's key id, but signed by someone else's key.
    forged: (answer) => withClaims(answer, {}, otherKey),
    // Signed by the provider, but an hour past its expiry.
    expired: (answer) => withClaims(answer, { iat: now() - 7200, exp: now() - 3600 }),
    // Signed by the provider's key, but naming another issuer (a mix-up, or a key shared between issuers).
    otheriss: (answer) => withClaims(answer, { iss: 'https://login.elsewhere.example' }),
    // The provider goes down between its login page and the app's token request.
    down: () => 'hang-up',
  };
}

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
  const misbehaviour = await misbehaviours();
  const oidc = await startOidcProvider({
    port: oidcPortFor(port),
    clientId: OIDC.clientId,
    clientSecret: OIDC.clientSecret,
    redirectUris: [`http://127.0.0.1:${mailServerPortFor(port)}/api/auth/sso/callback`],
    tamper: (answer) => {
      const kind = kindOf(answer.sub);
      return kind ? misbehaviour[kind]?.(answer) : undefined;
    },
  });
  const known = oidc.accounts;
  known.has = (sub: string) => Map.prototype.has.call(known, sub) || account(sub) !== undefined;
  known.get = (sub: string) => (Map.prototype.get.call(known, sub) as TestOidcAccount | undefined) ?? account(sub);
  return async () => {
    await oidc.close();
    await smtp.close();
  };
}

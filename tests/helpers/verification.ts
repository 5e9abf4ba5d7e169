import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { loadConfig, type Config } from '../../src/server/config.js';
import { Mailer } from '../../src/server/mail/mailer.js';
import { Outbox } from '../../src/server/mail/outbox.js';
import { API } from '../../src/shared/api/paths.js';
import type { Me } from '../../src/shared/api/auth.js';
import * as COPY from '../../src/shared/copy.js';
import type { ReceivedMail, TestSmtpServer } from './smtp.js';
import { createTestApp, type TestApp } from './test-app.js';

/**
 * Verified addresses (issue 29) through real mail: an app whose SMTP_URL is a real SMTP server
 * (tests/helpers/smtp.ts), and the link and code read out of the mail as it arrived.
 */

/** PUBLIC_URL of the mailing apps: every verification link starts with it. */
export const MAIL_PUBLIC_URL = 'https://dorm.example.edu';

export interface MailingApp extends TestApp {
  smtp: TestSmtpServer;
  outbox: Outbox;
  /** The app's log lines (at info), for what must and must not be in them. */
  lines: string[];
}

/** A complete app with mail on, sending through `smtp`. */
export async function mailingApp(smtp: TestSmtpServer, overrides: Partial<Config> = {}): Promise<MailingApp> {
  const config = loadConfig({ SMTP_URL: smtp.url, PUBLIC_URL: MAIL_PUBLIC_URL, MAIL_FROM: 'Dorm Board <board@dorm.example.edu>' });
  const outbox = new Outbox(new Mailer(config.mail!));
  const lines: string[] = [];
  const t = await createTestApp(
    { mail: config.mail, publicUrl: config.publicUrl, logLevel: 'info', ...overrides },
    { outbox, logStream: { write: (line) => void lines.push(line) } },
  );
  return { ...t, smtp, outbox, lines };
}

/** Every mail that has reached `address`, oldest first, once every mail promised so far has gone. */
export async function mailsTo(app: { smtp: TestSmtpServer; outbox: Outbox }, address: string): Promise<ReceivedMail[]> {
  await app.outbox.idle();
  return app.smtp.mails.filter((mail) => mail.to.includes(address.toLowerCase()));
}

/** The newest mail to `address`: there must be one. */
export async function lastMailTo(app: { smtp: TestSmtpServer; outbox: Outbox }, address: string): Promise<ReceivedMail> {
  const mails = await mailsTo(app, address);
  expect(mails.length, `no mail reached ${address}`).toBeGreaterThan(0);
  return mails.at(-1)!;
}

export interface MailedVerification {
  /** The link's token: https://PUBLIC_URL/verify/<token>. */
  token: string;
  /** The 6 digits, as the mail prints them ("123 456"). */
  spaced: string;
  /** The same 6 digits without the space. */
  code: string;
}

/** The link and the code of a verification mail (one link, however often the mail repeats it). */
export function verificationIn(mail: ReceivedMail): MailedVerification {
  const tokens = [...mail.text.matchAll(/\/verify\/([\w-]{43})(?![\w-])/g)].map((match) => match[1]!);
  expect(tokens.length, mail.text).toBeGreaterThanOrEqual(1);
  expect(new Set(tokens).size, 'one link per mail').toBe(1);
  const spaced = new RegExp(`${COPY.verifyMail.codeLead} (\\d{3} \\d{3})$`, 'm').exec(mail.text)?.[1];
  expect(spaced, mail.text).toBeDefined();
  return { token: tokens[0]!, spaced: spaced!, code: spaced!.replace(' ', '') };
}

/** The verification in the newest mail to `address`. */
export async function mailedVerification(app: { smtp: TestSmtpServer; outbox: Outbox }, address: string) {
  return verificationIn(await lastMailTo(app, address));
}

export const verifyLink = (app: FastifyInstance, token: unknown, options: { cookie?: string; remoteAddress?: string } = {}) =>
  app.inject({
    method: 'POST',
    url: API.verifyLink,
    payload: { token } as object,
    headers: options.cookie ? { cookie: options.cookie } : {},
    ...(options.remoteAddress && { remoteAddress: options.remoteAddress }),
  });

export const verifyCode = (app: FastifyInstance, cookie: string | undefined, code: unknown, remoteAddress?: string) =>
  app.inject({
    method: 'POST',
    url: API.verifyCode,
    payload: { code } as object,
    headers: cookie ? { cookie } : {},
    ...(remoteAddress && { remoteAddress }),
  });

export const resendVerification = (app: FastifyInstance, cookie: string | undefined) =>
  app.inject({ method: 'POST', url: API.resendVerification, headers: cookie ? { cookie } : {} });

export const changeEmail = (app: FastifyInstance, cookie: string | undefined, payload: unknown) =>
  app.inject({ method: 'PUT', url: API.email, payload: payload as object, headers: cookie ? { cookie } : {} });

/** The Me an answer carries (sign-up, sign-in, GET /api/me, a code, a new address). */
export const meOf = (response: LightMyRequestResponse): Me => {
  expect(response.statusCode, response.body).toBeLessThan(300);
  return response.json<{ user: Me }>().user;
};

/** Proves a new account's address with the link of its sign-up mail. */
export async function verifyByMail(app: MailingApp, account: { email: string }) {
  const { token } = await mailedVerification(app, account.email);
  const response = await verifyLink(app.app, token);
  expect(response.statusCode, response.body).toBe(200);
}

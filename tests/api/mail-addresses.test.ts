import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { Mailer } from '../../src/server/mail/mailer.js';
import { Outbox } from '../../src/server/mail/outbox.js';
import { API } from '../../src/shared/api/paths.js';
import { signUp } from '../helpers/accounts.js';
import { query } from '../helpers/people.js';
import { startSmtpServer, type TestSmtpServer } from '../helpers/smtp.js';
import { createTestApp, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';

/**
 * Mail goes to one address, the account's, or nowhere (issue 26 point 4). With
 * REGISTRATION_EMAIL_DOMAINS=*.campus.example.edu, 'att@evil.test,x.campus.example.edu' signed up
 * and its reset mail went out as RCPT TO:<att@evil.test>: nodemailer read the stored string as a
 * list. Here through a real SMTP server, whose envelope is where mail really goes.
 */

const PASSWORD = 'correct horse 1';
const lines: string[] = [];
let smtp: TestSmtpServer;
let outbox: Outbox;
let t: TestApp;

const forgot = (identifier: string) => t.app.inject({ method: 'POST', url: API.forgotPassword, payload: { identifier } });
/** Every mail asked for so far has been sent (or not), and every one the server received is in. */
const settled = () => outbox.idle();

beforeAll(async () => {
  smtp = await startSmtpServer();
  const config = loadConfig({
    SMTP_URL: smtp.url,
    PUBLIC_URL: 'https://dorm.example.edu',
    MAIL_FROM: 'Dorm Board <board@dorm.example.edu>',
  });
  outbox = new Outbox(new Mailer(config.mail!));
  t = await createTestApp(
    {
      mail: config.mail,
      publicUrl: config.publicUrl,
      logLevel: 'info',
      registration: { mode: 'domains', emailDomains: ['*.campus.example.edu'] },
      rateLimits: { ...TEST_RATE_LIMITS, forgotPerIp: 10_000, forgotPerAccount: 10_000 },
    },
    { outbox, logStream: { write: (line) => void lines.push(line) } },
  );
});

afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('reset mail: one recipient, the parsed address', () => {
  it('RCPT TO is exactly the account address, once, even with every atext special in it', async () => {
    const email = "o'brien+{dorm}|~=?#$%&*^_`!/-x@cs.campus.example.edu";
    const owner = await signUp(t.app, { username: 'obrien', email, password: PASSWORD });
    // Its verification mail (issue 29) first, so the counts below are the reset mail's.
    await settled();
    const before = smtp.mails.length;
    expect((await forgot(owner.username)).statusCode).toBe(204);
    await settled();
    expect(smtp.mails.slice(before).map((mail) => mail.to)).toEqual([[email]]);
    expect(smtp.mails.at(-1)!.text).toMatch(new RegExp(`^To: ${email.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\r?$`, 'm'));
  });

  it('the attack addresses of issue 26 sign up nowhere, and nothing is ever mailed outside the campus', async () => {
    const before = smtp.mails.length;
    const attacks = [
      'att@evil.test,x.campus.example.edu',
      'att@evil.test;x.campus.example.edu',
      'att@evil.test>x.campus.example.edu',
      'att@evil.test,x@cs.campus.example.edu',
    ];
    for (const [index, email] of attacks.entries()) {
      const username = `mailattack${index}`;
      const response = await t.app.inject({ method: 'POST', url: API.register, payload: { username, email, password: PASSWORD } });
      expect(response.statusCode, `${email}: ${response.body}`).toBe(400);
      // Whatever was made of it, ask for its reset mail by both names.
      expect((await forgot(username)).statusCode).toBe(204);
      expect((await forgot(email)).statusCode).toBe(204);
    }
    await settled();
    const sent = smtp.mails.slice(before);
    expect(sent.flatMap((mail) => mail.to)).toEqual([]);
  });

  it('a stored address that does not parse (inserted before the parser) gets no mail at all, no link, and a warning', async () => {
    const hostile = 'att@evil.test,x@campus.example.edu';
    const owner = await signUp(t.app, { username: 'storedbad', email: 'storedbad@cs.campus.example.edu', password: PASSWORD });
    // Its verification mail (issue 29) first, so the counts below are the reset mail's.
    await settled();
    await query(t.database, 'UPDATE users SET email = $1 WHERE id = $2', [hostile, owner.uid]);
    const before = smtp.mails.length;
    lines.length = 0;
    expect((await forgot(owner.username)).statusCode).toBe(204);
    await settled();
    expect(smtp.mails.slice(before)).toEqual([]);
    expect(smtp.mails.flatMap((mail) => mail.to).filter((to) => to.includes('evil'))).toEqual([]);
    expect(await query(t.database, 'SELECT 1 FROM password_resets WHERE user_id = $1', [owner.uid])).toEqual([]);
    const warning = lines
      .map((line) => JSON.parse(line) as { level: number; msg: string; userId?: string })
      .find((line) => line.level === 40);
    expect(warning).toMatchObject({ userId: owner.uid, msg: expect.stringMatching(/reset mail not sent/) });
    expect(lines.join('\n')).not.toContain('evil.test');
  });
});

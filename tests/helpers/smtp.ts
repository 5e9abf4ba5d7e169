import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A mail as the SMTP server received it. */
export interface ReceivedMail {
  /** The envelope's recipients (RCPT TO): where the mail really goes. */
  to: string[];
  from: string;
  /** The whole message, quoted-printable undone, so links and words can be searched for. */
  text: string;
}

/** Quoted-printable undone (soft line breaks and =XX escapes), which is how nodemailer sends long lines. */
function decodeQuotedPrintable(raw: string): string {
  const joined = raw.replace(/=\r?\n/g, '');
  return Buffer.from(
    joined.replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');
}

export interface TestSmtpServer {
  /** SMTP_URL for the app: smtp://user:pass@127.0.0.1:<port>. */
  url: string;
  mails: ReceivedMail[];
  /** The next mail to arrive (or one that arrived since the last call), within `ms`. */
  next(ms?: number): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/**
 * A real SMTP server (the smtp-server package) on a random loopback port, requiring the login
 * in its URL, as a mail provider would: mail the app sends really crosses SMTP to it.
 * No STARTTLS (there is no certificate to trust on loopback).
 */
export async function startSmtpServer({
  port = 0,
  onMail,
}: { port?: number; onMail?: (mail: ReceivedMail) => void } = {}): Promise<TestSmtpServer> {
  const mails: ReceivedMail[] = [];
  let taken = 0;
  const waiting: Array<() => void> = [];
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'mailer' && auth.password === 'secret') callback(null, { user: 'mailer' });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const mail = {
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          text: decodeQuotedPrintable(Buffer.concat(chunks).toString('latin1')),
        };
        mails.push(mail);
        onMail?.(mail);
        waiting.splice(0).forEach((wake) => wake());
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://mailer:secret@127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    mails,
    async next(ms = 10_000) {
      const deadline = Date.now() + ms;
      while (mails.length <= taken) {
        if (Date.now() > deadline) throw new Error(`no mail arrived within ${ms} ms`);
        await new Promise<void>((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return mails[taken++]!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

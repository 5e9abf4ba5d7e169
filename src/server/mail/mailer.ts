import nodemailer, { type Transporter } from 'nodemailer';
import type { EmailAddress } from '../../shared/validation/email.js';
import type { MailConfig } from '../config.js';

/** One mail, to one parsed address: plain text for every client, and the same in simple HTML. */
export interface Mail {
  to: EmailAddress;
  subject: string;
  text: string;
  html: string;
}

/**
 * Sends mail through the SMTP server of SMTP_URL (nodemailer: STARTTLS whenever the server
 * offers it, TLS from the start for smtps://). Bounded waits: an SMTP server that stops answering
 * holds a mail for seconds, not nodemailer's default minutes.
 */
export class Mailer {
  private readonly transport: Transporter;

  constructor(private readonly config: MailConfig) {
    this.transport = nodemailer.createTransport(
      { url: config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
      { from: config.from },
    );
  }

  /**
   * The recipient goes to nodemailer as an address object, in the To header and in an explicit
   * envelope: nodemailer runs a string through its address-list parser (where ',' ';' '<' split
   * it into several recipients) and builds the envelope from the headers, but takes an object's
   * address as the one mailbox it is (issue 26: a stored 'att@evil.test,x@…' mailed evil.test).
   */
  async send({ to, ...mail }: Mail): Promise<void> {
    const recipient = { name: '', address: to.address };
    await this.transport.sendMail({ ...mail, to: recipient, envelope: { from: this.config.from, to: recipient } });
  }

  close() {
    this.transport.close();
  }
}

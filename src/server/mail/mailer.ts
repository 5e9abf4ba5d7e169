import nodemailer, { type Transporter } from 'nodemailer';
import type { MailConfig } from '../config.js';

/** One mail: plain text for every client, and the same in simple HTML. */
export interface Mail {
  to: string;
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

  constructor(config: MailConfig) {
    this.transport = nodemailer.createTransport(
      { url: config.smtpUrl, connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 },
      { from: config.from },
    );
  }

  async send(mail: Mail): Promise<void> {
    await this.transport.sendMail(mail);
  }

  close() {
    this.transport.close();
  }
}

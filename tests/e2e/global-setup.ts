import fs from 'node:fs';
import path from 'node:path';
import { startSmtpServer } from '../helpers/smtp';
import { mailDirFor, smtpPortFor } from './mail';

/** Starts the run's SMTP server (see mail.ts); Playwright stops it when the run ends. */
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
  return () => smtp.close();
}

import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import type { ZipFile } from 'yazl';
import * as COPY from '../../shared/copy.js';

/**
 * The ZIP side of Download My Data: names, the README, and writing entries with backpressure.
 * yazl writes entries in the order they are added and never waits for its reader, so every
 * write here waits until the response has taken what came before: whatever the account's size,
 * the server holds one photo and a few pages of JSON at a time.
 */

/** The download's file name: "<app>-<username>-<YYYY-MM-DD>.zip", in ASCII (the header's plain form). */
export function exportFileName(appName: string, username: string, now: Date): string {
  // The header's quoted form may not carry quotes or non-ASCII (APP_NAME is the operator's to choose).
  const safe = (text: string) => text.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '') || 'data';
  return `${safe(appName)}-${safe(username)}-${now.toISOString().slice(0, 10)}.zip`;
}

/**
 * A post's photo in the ZIP: "photos/<YYYY-MM-DD_HH-MM-SS>-<post id>.jpg" (UTC), so a folder
 * listing is in posting order, and no colon (Windows refuses them in file names).
 */
export function photoName(post: { id: string; createdAt: Date }): string {
  const stamp = post.createdAt.toISOString().slice(0, 19).replace('T', '_').replaceAll(':', '-');
  return `photos/${stamp}-${post.id}.jpg`;
}

export const ICON_NAME = 'profile-icon.webp';

/** README.txt: what each file holds (COPY.dataExport.files, as on the page), and what is missing. */
export function readmeText(options: { appName: string; username: string; now: Date; missing: string[] }): string {
  const width = Math.max(...COPY.dataExport.files.map((file) => file.name.length));
  const lines = [
    `Your ${options.appName} data: @${options.username}, downloaded ${options.now.toISOString()}.`,
    '',
    ...COPY.dataExport.files.map((file) => `${file.name.padEnd(width)}  ${file.what}`),
    '',
    'Times are UTC, in ISO 8601. A post whose photo is missing has "photo": null in posts.json.',
  ];
  if (options.missing.length > 0) {
    lines.push('', ...options.missing.map((what) => `${what} ${COPY.dataExport.photoMissing}.`));
  }
  return `${lines.join('\n')}\n`;
}

/** Waits until `stream` has handed on what it buffered (or the download was abandoned). */
export async function drained(stream: Writable, signal: AbortSignal): Promise<void> {
  while (stream.writableNeedDrain) await once(stream, 'drain', { signal });
}

/** What the ZIP is handed of a stored file at a time (photos are up to a few MB). */
const STORED_SLICE_BYTES = 64 * 1024;

/**
 * Adds a file already in memory as it is (no deflate: photos are compressed already), and waits
 * until the ZIP has taken all of it and the response has taken what the ZIP wrote.
 *
 * WARNING: never yazl's addBuffer for files of unbounded number: each entry keeps its buffer
 * until the ZIP ends (for the central directory's sake the entry lives on, and with it the
 * closure that writes the buffer). Measured: 1,000 photos took the server from 414 to 998 MiB.
 * A stream entry keeps only its emptied stream.
 */
export async function addStored(zip: ZipFile, out: Writable, body: Buffer, name: string, mtime: Date, signal: AbortSignal): Promise<void> {
  const source = new PassThrough();
  // In slices (views of the same memory): a photo written as one chunk reaches the connection
  // as one write, which drains only once the reader has taken all of it, and a slow reader would
  // look stalled (http/stalled-response.ts).
  for (let at = 0; at < body.length; at += STORED_SLICE_BYTES) source.write(body.subarray(at, at + STORED_SLICE_BYTES));
  source.end();
  zip.addReadStream(source, name, { compress: false, size: body.length, mtime });
  await once(source, 'end', { signal });
  await drained(out, signal);
}

/**
 * A JSON array written into the ZIP one item at a time (deflated): "[", the items one a line,
 * "]". Waits whenever the ZIP has not yet taken the last ones, so pages can be read as it goes.
 */
export class JsonArrayEntry {
  private readonly stream = new PassThrough();
  private empty = true;

  constructor(
    zip: ZipFile,
    name: string,
    private readonly signal: AbortSignal,
  ) {
    zip.addReadStream(this.stream, name);
  }

  async push(item: unknown): Promise<void> {
    this.stream.write(`${this.empty ? '[\n' : ',\n'}  ${JSON.stringify(item)}`);
    this.empty = false;
    await drained(this.stream, this.signal);
  }

  end(): void {
    this.stream.end(this.empty ? '[]\n' : '\n]\n');
  }
}

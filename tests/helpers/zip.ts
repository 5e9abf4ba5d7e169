import yauzl from 'yauzl';

/** One file of a ZIP, as unzipped by yauzl (which checks every CRC and size). */
export interface ZipEntry {
  data: Buffer;
  /** 0: stored as it is; 8: deflated. */
  compressionMethod: number;
}

/** Every file of a whole ZIP, by name, in the order the ZIP holds them. */
export function readZip(zip: Buffer): Promise<Map<string, ZipEntry>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, file) => {
      if (error) return reject(error);
      const entries = new Map<string, ZipEntry>();
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, { data: Buffer.concat(chunks), compressionMethod: entry.compressionMethod });
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

/** A JSON file of the ZIP, parsed; throws when it is not there. */
export function zipJson<T = unknown>(entries: Map<string, ZipEntry>, name: string): T {
  const entry = entries.get(name);
  if (!entry) throw new Error(`${name} is not in the ZIP (it has ${[...entries.keys()].join(', ')})`);
  return JSON.parse(entry.data.toString('utf8')) as T;
}

/** One file of a ZIP on disk: its size, and its bytes only when it is text (JSON, README). */
export interface ZipFileEntry {
  size: number;
  compressionMethod: number;
  text?: string;
}

/**
 * Every file of a ZIP on disk, each read through to its end (so yauzl checks its CRC and size)
 * without holding the photos: for ZIPs of hundreds of megabytes.
 */
export function readZipFile(file: string): Promise<Map<string, ZipFileEntry>> {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, ZipFileEntry>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const keep = /\.(json|txt)$/.test(entry.fileName);
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (keep) chunks.push(chunk);
          });
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, {
              size,
              compressionMethod: entry.compressionMethod,
              ...(keep && { text: Buffer.concat(chunks).toString('utf8') }),
            });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

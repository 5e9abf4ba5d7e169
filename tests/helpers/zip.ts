import yauzl from 'yauzl';

/** One file of a ZIP, as unzipped by yauzl (which checks every CRC and size). */
export interface ZipEntry {
  data: Buffer;
  /** 0: stored as it is; 8: deflated. */
  compressionMethod: number;
}

/** One file of a ZIP on disk: its size, and its bytes only when it is text (JSON, README). */
export interface ZipFileEntry {
  size: number;
  compressionMethod: number;
  text?: string;
}

type Open = (options: yauzl.Options, callback: (error: Error | null, zip: yauzl.ZipFile) => void) => void;

/**
 * Every file of a ZIP, in the order it holds them, each read through to its end (so yauzl checks
 * its CRC and size); the bytes kept only of the files `keep` names.
 */
function readEntries(open: Open, keep: (name: string) => boolean) {
  return new Promise<Map<string, { size: number; compressionMethod: number; data?: Buffer }>>((resolve, reject) => {
    open({ lazyEntries: true, strictFileNames: true, validateEntrySizes: true }, (error, zip) => {
      if (error) return reject(error);
      const entries = new Map<string, { size: number; compressionMethod: number; data?: Buffer }>();
      zip.on('error', reject);
      zip.on('end', () => resolve(entries));
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (streamError, stream) => {
          if (streamError) return reject(streamError);
          const chunks: Buffer[] = [];
          let size = 0;
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (keep(entry.fileName)) chunks.push(chunk);
          });
          stream.on('error', reject);
          stream.on('end', () => {
            const data = keep(entry.fileName) ? Buffer.concat(chunks) : undefined;
            entries.set(entry.fileName, { size, compressionMethod: entry.compressionMethod, data });
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  });
}

/** Every file of a whole ZIP in memory, by name. */
export async function readZip(zip: Buffer): Promise<Map<string, ZipEntry>> {
  const entries = await readEntries(
    (options, callback) => yauzl.fromBuffer(zip, options, callback),
    () => true,
  );
  return new Map([...entries].map(([name, entry]) => [name, { data: entry.data!, compressionMethod: entry.compressionMethod }]));
}

/** Every file of a ZIP on disk, without holding the photos: for ZIPs of hundreds of megabytes. */
export async function readZipFile(file: string): Promise<Map<string, ZipFileEntry>> {
  const entries = await readEntries(
    (options, callback) => yauzl.open(file, options, callback),
    (name) => /\.(json|txt)$/.test(name),
  );
  return new Map(
    [...entries].map(([name, { size, compressionMethod, data }]) => [name, { size, compressionMethod, text: data?.toString('utf8') }]),
  );
}

/** A JSON file of the ZIP, parsed; throws when it is not there. */
export function zipJson<T = unknown>(entries: Map<string, ZipEntry>, name: string): T {
  const entry = entries.get(name);
  if (!entry) throw new Error(`${name} is not in the ZIP (it has ${[...entries.keys()].join(', ')})`);
  return JSON.parse(entry.data.toString('utf8')) as T;
}

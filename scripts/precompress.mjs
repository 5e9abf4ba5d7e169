// Writes .br and .gz beside every text asset of the client build, once, at maximum
// compression: the server sends them as they are (no compression work per request).
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const root = path.resolve(process.argv[2] ?? 'dist/client');
const brotli = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);
const TEXT = new Set(['.js', '.css', '.html', '.svg', '.json', '.txt']);

let files = 0;
for (const entry of await fs.readdir(root, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !TEXT.has(path.extname(entry.name))) continue;
  const file = path.join(entry.parentPath, entry.name);
  // A template: the server fills in its placeholders and compresses the result itself.
  if (file === path.join(root, 'index.html')) continue;
  const body = await fs.readFile(file);
  await fs.writeFile(`${file}.br`, await brotli(body, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }));
  await fs.writeFile(`${file}.gz`, await gzip(body, { level: 9 }));
  files += 1;
}
console.log(`precompressed ${files} files in ${path.relative(process.cwd(), root)}`);

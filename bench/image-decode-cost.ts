import sharp from 'sharp';
import { processImage } from '../src/server/images/image-pipeline.js';
import { losslessWebp, png16 } from '../tests/helpers/image-bombs.js';

/**
 * What an upload costs the image worker, per format: for each kind of input at 4 MP, the CPU
 * time of its decode alone (whole, no shrink-on-load: an upper bound) per input megapixel, and of
 * the rest of processImage (resize, every encode) per output megapixel; then whole images at
 * their real size, to check what those figures predict. CPU time of this process (libvips'
 * threads included), not wall time: the machine is shared, and a busy neighbour would inflate
 * wall time without the work being any larger. Best of RUNS.
 *
 *   npx tsx bench/image-decode-cost.ts [part of a variant's name | whole]
 *
 * The figures feed IMAGE_COST in src/server/images/decode-cost.ts (and BENCHMARKS.md).
 */
const RUNS = 3;
/** 4 MP: under the 2560 px full size, so every output is made at the input's size. */
const SIDE = 2000;

type Make = (side: number) => Promise<Buffer>;

/** Photo-like pixels: soft noise over a gradient (what makes entropy coders work), 8-bit. */
async function photoPixels(side: number, channels: 3 | 4) {
  const noise = await sharp({
    create: { width: side, height: side, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } },
  })
    .blur(0.6)
    .raw()
    .toBuffer();
  const image = sharp(noise, { raw: { width: side, height: side, channels: 3 } });
  return channels === 4 ? image.ensureAlpha(0.6) : image;
}
const solid = (side: number, channels: 3 | 4) =>
  sharp({ create: { width: side, height: side, channels, background: { r: 60, g: 170, b: 100, alpha: 0.5 } } });

const VARIANTS: Array<[string, Make]> = [
  ['jpeg baseline 4:2:0 photo q90', async (s) => (await photoPixels(s, 3)).jpeg({ quality: 90 }).toBuffer()],
  ['jpeg baseline 4:4:4 photo q100', async (s) => (await photoPixels(s, 3)).jpeg({ quality: 100, chromaSubsampling: '4:4:4' }).toBuffer()],
  [
    'jpeg progressive 4:4:4 photo q100',
    async (s) => (await photoPixels(s, 3)).jpeg({ quality: 100, chromaSubsampling: '4:4:4', progressive: true }).toBuffer(),
  ],
  ['jpeg progressive 4:4:4 solid', (s) => solid(s, 3).jpeg({ quality: 30, chromaSubsampling: '4:4:4', progressive: true }).toBuffer()],
  ['png 8-bit rgb photo', async (s) => (await photoPixels(s, 3)).png({ compressionLevel: 1 }).toBuffer()],
  ['png 16-bit rgba interlaced', (s) => png16(s, s)],
  ['png 16-bit rgba', (s) => png16(s, s, { interlaced: false })],
  ['webp lossy photo', async (s) => (await photoPixels(s, 3)).webp({ quality: 90, effort: 0 }).toBuffer()],
  ['webp lossy alpha photo', async (s) => (await photoPixels(s, 4)).webp({ quality: 90, effort: 0 }).toBuffer()],
  ['webp lossless photo', async (s) => (await photoPixels(s, 3)).webp({ lossless: true, effort: 0 }).toBuffer()],
  ['webp lossless solid', (s) => losslessWebp(s, s)],
  ['gif photo', async (s) => (await photoPixels(s, 3)).gif({ effort: 1 }).toBuffer()],
  ['avif 8-bit 4:2:0 photo', async (s) => (await photoPixels(s, 3)).avif({ quality: 60, effort: 0 }).toBuffer()],
  ['avif 8-bit 4:4:4 solid', (s) => solid(s, 3).avif({ chromaSubsampling: '4:4:4', effort: 0 }).toBuffer()],
  ['avif 8-bit 4:2:0 solid', (s) => solid(s, 3).avif({ effort: 0 }).toBuffer()],
  ['avif 8-bit 4:2:0 alpha solid', (s) => solid(s, 4).avif({ effort: 0 }).toBuffer()],
  ['avif 10-bit 4:4:4 solid', (s) => solid(s, 3).avif({ bitdepth: 10, chromaSubsampling: '4:4:4', effort: 0 }).toBuffer()],
  ['avif 12-bit 4:2:0 solid', (s) => solid(s, 3).avif({ bitdepth: 12, effort: 0 }).toBuffer()],
  ['avif 12-bit 4:4:4 solid', (s) => solid(s, 3).avif({ bitdepth: 12, chromaSubsampling: '4:4:4', effort: 0 }).toBuffer()],
  ['avif 12-bit 4:4:4 alpha solid', (s) => solid(s, 4).avif({ bitdepth: 12, chromaSubsampling: '4:4:4', effort: 0 }).toBuffer()],
  ['avif 8-bit 4:2:0 alpha photo', async (s) => (await photoPixels(s, 4)).avif({ quality: 60, effort: 0 }).toBuffer()],
  ['avif 8-bit 4:2:0 photo q90', async (s) => (await photoPixels(s, 3)).avif({ quality: 90, effort: 0 }).toBuffer()],
  ['avif 12-bit 4:2:0 photo', async (s) => (await photoPixels(s, 3)).avif({ bitdepth: 12, quality: 60, effort: 0 }).toBuffer()],
  ['png 16-bit rgb photo', async (s) => (await photoPixels(s, 3)).png({ compressionLevel: 1 }).toColourspace('rgb16').toBuffer()],
  ['png 8-bit rgb interlaced photo', async (s) => (await photoPixels(s, 3)).png({ compressionLevel: 1, progressive: true }).toBuffer()],
  [
    'avif 12-bit 4:4:4 alpha photo',
    async (s) => (await photoPixels(s, 4)).avif({ bitdepth: 12, chromaSubsampling: '4:4:4', quality: 60, effort: 0 }).toBuffer(),
  ],
];

/** CPU milliseconds of this process (every thread) while `work` runs. */
async function cpuMs(work: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1000, wall: performance.now() - wall };
}

async function best(work: () => Promise<unknown>) {
  let min = { cpu: Infinity, wall: Infinity };
  for (let i = 0; i < RUNS; i++) {
    const run = await cpuMs(work);
    if (run.cpu < min.cpu) min = run;
  }
  return min;
}

/** The decode alone, whole (no shrink-on-load), as the pipeline opens an upload. */
const decodeOnly = (input: Buffer) => () =>
  sharp(input, { limitInputPixels: false, failOn: 'warning', sequentialRead: true, pages: 1, page: 0 }).raw().toBuffer();

// Warm: the first run loads every codec.
await processImage(await solid(500, 3).jpeg().toBuffer());

/** Whole images at their real size, once each: what the per-megapixel figures predict for them. */
const WHOLE: Array<[string, () => Promise<Buffer>]> = [
  [
    '12-MP JPEG photo q90 (4000×3000)',
    async () => (await photoPixels(3000, 3)).resize(4000, 3000, { fit: 'fill' }).jpeg({ quality: 90 }).toBuffer(),
  ],
  [
    '48-MP JPEG photo q60 (8000×6000)',
    async () => (await photoPixels(3000, 3)).resize(8000, 6000, { fit: 'fill' }).jpeg({ quality: 60 }).toBuffer(),
  ],
  ['50-MP baseline JPEG solid (7071²)', () => solid(7071, 3).jpeg({ quality: 30 }).toBuffer()],
  [
    '12-MP AVIF photo 8-bit 4:2:0 (4000×3000)',
    async () => (await photoPixels(3000, 3)).resize(4000, 3000, { fit: 'fill' }).avif({ quality: 50, effort: 0 }).toBuffer(),
  ],
  [
    '12-MP WebP photo (4000×3000)',
    async () => (await photoPixels(3000, 3)).resize(4000, 3000, { fit: 'fill' }).webp({ quality: 80, effort: 0 }).toBuffer(),
  ],
  [
    'the 12-bit 4:4:4 alpha AVIF bomb (3065²)',
    () => solid(3065, 4).avif({ bitdepth: 12, chromaSubsampling: '4:4:4', effort: 0 }).toBuffer(),
  ],
];

const filter = process.argv[2];
if (filter === 'whole') {
  for (const [name, make] of WHOLE) {
    const input = await make();
    const run = await best(() => processImage(input));
    console.log(`${name} | ${input.length} bytes | ${Math.round(run.cpu)} CPU ms (${Math.round(run.wall)} wall)`);
  }
  process.exit(0);
}
console.log('variant | bytes | decode CPU ms per MP | the rest of processImage, CPU ms per MP | processImage wall ms');
for (const [name, make] of VARIANTS) {
  if (filter && !name.includes(filter)) continue;
  const input = await make(SIDE);
  const mp = (SIDE * SIDE) / 1e6;
  const decode = await best(decodeOnly(input));
  const whole = await best(() => processImage(input));
  console.log(
    `${name} | ${input.length} | ${Math.round(decode.cpu / mp)} | ${Math.round((whole.cpu - decode.cpu) / mp)} | ${Math.round(whole.wall)}`,
  );
}

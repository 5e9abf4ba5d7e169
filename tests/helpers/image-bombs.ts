import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createDeflate } from 'node:zlib';
import sharp from 'sharp';
import { pngChunk } from './images.js';

/**
 * Image bombs: small files that are legal images under the 50-megapixel limit but cost far more
 * to decode than their size or pixel count suggests (bit depth, interlacing, progressive
 * coefficients, whole-frame decoders, animation canvases). Plus normal 12-MP photos, which must
 * keep working. Generated in code (nothing binary is committed); the slow ones are written once
 * per run into a temporary folder and shared by every test file of the run.
 */

/** 7071 × 7071 = 49,999,041 pixels: just under MAX_INPUT_PIXELS. */
export const NEAR_LIMIT = 7071;

/** What the server must do with an input: process it, or refuse it from its header as too large. */
export type Expected = 'accepted' | 'too-large';

export interface CorpusEntry {
  name: string;
  mimetype: string;
  filename: string;
  bytes: Buffer;
  expected: Expected;
}

/** The seven Adam7 passes: where each starts and how far it steps, in x and y. */
const ADAM7 = [
  [0, 8, 0, 8],
  [4, 8, 0, 8],
  [0, 4, 4, 8],
  [2, 4, 0, 4],
  [0, 2, 2, 4],
  [1, 2, 0, 2],
  [0, 1, 1, 2],
] as const;

/**
 * A 16-bit RGBA PNG, every pixel transparent black. Adam7-interlaced, its few hundred KB can
 * only be decoded whole (8 bytes a pixel, 400 MB at 50 MP). The pixel data
 * (all zeros) is deflated as a stream, so generating it costs little memory.
 */
export async function png16(width = NEAR_LIMIT, height = NEAR_LIMIT, { interlaced = true } = {}): Promise<Buffer> {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 16; // bit depth
  ihdr[9] = 6; // RGBA
  ihdr[12] = interlaced ? 1 : 0; // Adam7
  let total = 0;
  for (const [x0, dx, y0, dy] of interlaced ? ADAM7 : ([[0, 1, 0, 1]] as const)) {
    const passWidth = Math.ceil((width - x0) / dx);
    const passHeight = Math.ceil((height - y0) / dy);
    if (passWidth > 0 && passHeight > 0) total += passHeight * (1 + passWidth * 8);
  }
  const chunk = Buffer.alloc(1 << 22);
  function* zeros() {
    for (let left = total; left > 0; left -= chunk.length) yield left >= chunk.length ? chunk : chunk.subarray(0, left);
  }
  const data = await buffer(Readable.from(zeros()).pipe(createDeflate({ level: 9 })));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', data),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A lossless WebP of one colour at any size, in 38 bytes: the encoder's 1×1 image has
 * one-symbol Huffman codes, so each pixel costs zero bits and the header's size can be raised
 * freely. libwebp decodes lossless images into a whole ARGB buffer (4 bytes a pixel).
 */
export async function losslessWebp(width = NEAR_LIMIT, height = NEAR_LIMIT): Promise<Buffer> {
  const one = await sharp({ create: { width: 1, height: 1, channels: 4, background: { r: 10, g: 200, b: 30, alpha: 1 } } })
    .webp({ lossless: true, effort: 0 })
    .toBuffer();
  const bytes = Buffer.from(one);
  // RIFF header (12) + 'VP8L' + chunk size (8) + signature 0x2f, then 14 bits width-1, 14 bits height-1.
  const at = 21;
  if (bytes.toString('latin1', 12, 16) !== 'VP8L' || bytes[20] !== 0x2f) throw new Error('unexpected lossless WebP layout');
  const bits = bytes.readUInt32LE(at);
  bytes.writeUInt32LE(((bits & ~0x0fffffff) | ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14)) >>> 0, at);
  return bytes;
}

function riffChunk(type: string, data: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.write(type, 0, 'latin1');
  header.writeUInt32LE(data.length, 4);
  return Buffer.concat([header, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
}

const uint24 = (value: number) => Buffer.from([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]);

/** An animated WebP of `frames` full-canvas frames, each one the zero-bit lossless image above. */
export async function animatedWebp(frames: number, width = NEAR_LIMIT, height = NEAR_LIMIT): Promise<Buffer> {
  const still = await losslessWebp(width, height);
  const vp8l = still.subarray(12);
  const vp8x = Buffer.concat([Buffer.from([0x02, 0, 0, 0]), uint24(width - 1), uint24(height - 1)]);
  const anim = Buffer.from([0, 0, 0, 0, 0, 0]);
  const frame = riffChunk(
    'ANMF',
    Buffer.concat([uint24(0), uint24(0), uint24(width - 1), uint24(height - 1), uint24(100), Buffer.from([0x02]), vp8l]),
  );
  const body = Buffer.concat([
    Buffer.from('WEBP', 'latin1'),
    riffChunk('VP8X', vp8x),
    riffChunk('ANIM', anim),
    ...Array(frames).fill(frame),
  ]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

/**
 * GIF LZW data (minimum code size 2) for `count` pixels of colour 0. For one repeated colour the
 * codes are known in advance: after a clear code, the n-th code stands for n + 1 pixels, and a
 * clear code restarts the table before it is full.
 */
function lzwOfZeros(count: number): Buffer {
  const bytes: number[] = [];
  let buffer = 0;
  let bits = 0;
  const emit = (code: number, width: number) => {
    buffer |= code << bits;
    bits += width;
    while (bits >= 8) {
      bytes.push(buffer & 0xff);
      buffer >>>= 8;
      bits -= 8;
    }
  };
  const CLEAR = 4;
  const END = 5;
  // The decoder's state: code width, next table entry, and whether a code follows a clear.
  let width = 3;
  let next = 6;
  let afterClear = true;
  const code = (value: number) => {
    emit(value, width);
    // Every code but the first after a clear adds one entry; the width grows when it must.
    if (!afterClear && next < 4096) {
      next += 1;
      if (next === 1 << width && width < 12) width += 1;
    }
    afterClear = false;
  };
  const clear = () => {
    emit(CLEAR, width);
    [width, next, afterClear] = [3, 6, true];
  };
  clear();
  let n = 0;
  for (let left = count; left > 0;) {
    // Restart before the table fills, or when the next string is longer than what is left.
    if (next >= 4094 || n + 1 > left) {
      clear();
      n = 0;
    }
    code(n === 0 ? 0 : 5 + n);
    left -= n + 1;
    n += 1;
  }
  emit(END, width);
  if (bits > 0) bytes.push(buffer & 0xff);
  // Sub-blocks of at most 255 bytes, then an empty one.
  const out: number[] = [2];
  for (let i = 0; i < bytes.length; i += 255) {
    const block = bytes.slice(i, i + 255);
    out.push(block.length, ...block);
  }
  out.push(0);
  return Buffer.from(out);
}

/**
 * An animated GIF: one `width`×`height` frame of one colour (a few tens of KB of LZW), then
 * `frames - 1` frames of one pixel each (~20 bytes a frame). A decoder renders each frame onto
 * the whole canvas (RGBA).
 */
export function animatedGif(frames: number, width = NEAR_LIMIT, height = NEAR_LIMIT): Buffer {
  const screen = Buffer.alloc(7);
  screen.writeUInt16LE(width, 0);
  screen.writeUInt16LE(height, 2);
  screen[4] = 0xf0; // global colour table of 2 entries
  const palette = Buffer.from([200, 40, 90, 255, 255, 255]);
  const loop = Buffer.from([0x21, 0xff, 0x0b, ...Buffer.from('NETSCAPE2.0', 'latin1'), 0x03, 0x01, 0x00, 0x00, 0x00]);
  const control = Buffer.from([0x21, 0xf9, 0x04, 0x00, 0x0a, 0x00, 0x00, 0x00]);
  const descriptor = (w: number, h: number) => Buffer.from([0x2c, 0, 0, 0, 0, w & 0xff, w >> 8, h & 0xff, h >> 8, 0x00]);
  const first = Buffer.concat([control, descriptor(width, height), lzwOfZeros(width * height)]);
  const small = Buffer.concat([control, descriptor(1, 1), lzwOfZeros(1)]);
  return Buffer.concat([
    Buffer.from('GIF89a', 'latin1'),
    screen,
    palette,
    loop,
    first,
    ...Array(frames - 1).fill(small),
    Buffer.from([0x3b]),
  ]);
}

/** A smooth, photo-like picture (gradient plus soft noise), at 8 bits. */
async function photo(width: number, height: number) {
  const noise = await sharp({
    create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } },
  })
    .blur(1.5)
    .raw()
    .toBuffer();
  const gradient = Buffer.from(
    `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e76f51"/><stop offset="1" stop-color="#264653"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)" fill-opacity="0.7"/></svg>`,
  );
  return sharp(noise, { raw: { width, height, channels: 3 } })
    .composite([{ input: gradient }])
    .raw()
    .toBuffer();
}

/** Encodes at falling quality until the file fits `maxBytes`. */
async function fit(encode: (quality: number) => Promise<Buffer>, maxBytes: number, start: number): Promise<Buffer> {
  for (let quality = start; ; quality -= 10) {
    const bytes = await encode(quality);
    if (bytes.length <= maxBytes || quality <= 10) return bytes;
  }
}

/** Photos fit the smaller of the two upload limits (an icon's 500,000 bytes), so one corpus serves both. */
const PHOTO_MAX_BYTES = 500_000;

async function generate(): Promise<CorpusEntry[]> {
  const n = NEAR_LIMIT;
  const solid = (channels: 3 | 4) => sharp({ create: { width: n, height: n, channels, background: { r: 60, g: 170, b: 100, alpha: 1 } } });
  const [width, height] = [4000, 3000];
  const pixels = await photo(width, height);
  const raw = () => sharp(pixels, { raw: { width, height, channels: 3 } });
  const entry = (name: string, filename: string, expected: Expected, bytes: Buffer): CorpusEntry => ({
    name,
    filename,
    mimetype: `image/${filename.split('.').pop()!.replace('jpg', 'jpeg')}`,
    expected,
    bytes,
  });
  return [
    entry('12-bit AVIF 7071×7071', 'bomb.avif', 'too-large', await solid(3).avif({ bitdepth: 12, effort: 0 }).toBuffer()),
    entry('interlaced 16-bit RGBA PNG 7071×7071', 'bomb.png', 'too-large', await png16()),
    entry(
      'progressive 4:4:4 JPEG 7071×7071',
      'bomb.jpg',
      'too-large',
      await solid(3).jpeg({ progressive: true, chromaSubsampling: '4:4:4', quality: 30 }).toBuffer(),
    ),
    entry('animated GIF 7071×7071, 2000 frames', 'bomb.gif', 'too-large', animatedGif(2000)),
    entry('animated WebP 7071×7071, 2000 frames', 'anim.webp', 'too-large', await animatedWebp(2000)),
    entry('16-bit PNG 50000×1000 (not interlaced)', 'wide.png', 'too-large', await png16(50_000, 1000, { interlaced: false })),
    // Within the memory budget but over the time cap (work-cost.ts): refused.
    entry('lossless WebP 7071×7071', 'bomb.webp', 'too-large', await losslessWebp()),
    // Costly to decode but within both budgets: accepted.
    entry(
      'baseline JPEG 7071×7071, turned 90°',
      'turned.jpg',
      'accepted',
      await solid(3).jpeg({ quality: 30 }).withMetadata({ orientation: 6 }).toBuffer(),
    ),
    entry('12-MP JPEG photo', 'photo.jpg', 'accepted', await fit((quality) => raw().jpeg({ quality }).toBuffer(), PHOTO_MAX_BYTES, 50)),
    entry(
      '12-MP AVIF photo',
      'photo.avif',
      'accepted',
      await fit((quality) => raw().avif({ quality, effort: 0 }).toBuffer(), PHOTO_MAX_BYTES, 45),
    ),
    entry(
      '12-MP WebP photo',
      'photo.webp',
      'accepted',
      await fit((quality) => raw().webp({ quality, effort: 0 }).toBuffer(), PHOTO_MAX_BYTES, 45),
    ),
  ];
}

/**
 * The corpus, generated once (~20 s) and kept in the temporary folder, so every test file and
 * later runs share it.
 */
export async function imageCorpus(): Promise<CorpusEntry[]> {
  const folder = path.join(os.tmpdir(), 'dormboard-image-corpus-v2');
  const index = path.join(folder, 'index.json');
  if (!fs.existsSync(index)) {
    const entries = await generate();
    const staging = fs.mkdtempSync(`${folder}-`);
    entries.forEach((entry, i) => fs.writeFileSync(path.join(staging, `${i}-${entry.filename}`), entry.bytes));
    fs.writeFileSync(
      path.join(staging, 'index.json'),
      JSON.stringify(entries.map(({ bytes: _bytes, ...entry }, i) => ({ ...entry, file: `${i}-${entry.filename}` }))),
    );
    try {
      fs.renameSync(staging, folder);
    } catch {
      // Another test file made it first: either copy is as good.
      fs.rmSync(staging, { recursive: true, force: true });
    }
  }
  const entries = JSON.parse(fs.readFileSync(index, 'utf8')) as Array<Omit<CorpusEntry, 'bytes'> & { file: string }>;
  return entries.map(({ file, ...entry }) => ({ ...entry, bytes: fs.readFileSync(path.join(folder, file)) }));
}

/**
 * The 12-bit 4:4:4 AVIF with alpha of the attack (issue 26): one colour, 3065 × 3065, ~600
 * bytes; under the pixel and memory limits, it took a second of a core to decode.
 */
export function avifTimeBomb(): Promise<Buffer> {
  return sharp({ create: { width: 3065, height: 3065, channels: 4, background: { r: 60, g: 170, b: 100, alpha: 0.5 } } })
    .avif({ bitdepth: 12, chromaSubsampling: '4:4:4', effort: 0 })
    .toBuffer();
}

/**
 * The costliest upload we could make that the cost cap lets through (bench/image-decode-cost.ts
 * measured the formats: AV1's decode is the slowest a pixel, and grows with the bitrate): a
 * 12-bit 4:4:4 AVIF with alpha of noise, as large as its expected cost allows. Cached like the
 * corpus.
 */
export async function costliestAvif(maxCost: number, cost: (bytes: Buffer) => Promise<number>): Promise<Buffer> {
  // v2: the cost model of issue 26 (a change of the model needs a new name).
  const file = path.join(os.tmpdir(), `dormboard-costliest-avif-v2-${maxCost}.avif`);
  if (fs.existsSync(file)) return fs.readFileSync(file);
  let found: Buffer | undefined;
  for (let side = 2300; !found; side -= 50) {
    const noise = await sharp({
      create: { width: side, height: side, channels: 4, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 50 } },
    })
      .blur(0.6)
      .avif({ bitdepth: 12, chromaSubsampling: '4:4:4', quality: 60, effort: 0 })
      .toBuffer();
    if ((await cost(noise)) <= maxCost) found = noise;
  }
  const staging = `${file}.${process.pid}`;
  fs.writeFileSync(staging, found);
  fs.renameSync(staging, file);
  return found;
}

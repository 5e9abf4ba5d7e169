import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { createDeflate, crc32 } from 'node:zlib';
import sharp from 'sharp';

/**
 * Image bombs: small files that are legal images under the 50-megapixel limit but cost far more
 * to decode than their size or pixel count suggests (bit depth, interlacing, progressive
 * coefficients, whole-frame decoders, animation canvases). Plus normal 12-MP photos, which must
 * keep working. Generated in code (nothing binary is committed); the slow ones are written once
 * per run into a temporary folder and shared by every test file of the run.
 */

/** 7071 × 7071 = 49,999,041 pixels: just under MAX_INPUT_PIXELS. */
export const NEAR_LIMIT = 7071;

export interface CorpusEntry {
  name: string;
  mimetype: string;
  filename: string;
  bytes: Buffer;
  /** true: a photo a student might really send, which must be accepted. */
  normal: boolean;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
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
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), riffChunk('VP8X', vp8x), riffChunk('ANIM', anim), ...Array(frames).fill(frame)]);
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
  for (let left = count; left > 0; ) {
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
  return Buffer.concat([Buffer.from('GIF89a', 'latin1'), screen, palette, loop, first, ...Array(frames - 1).fill(small), Buffer.from([0x3b])]);
}

/** A smooth, photo-like picture (gradient plus soft noise), at 8 bits. */
async function photo(width: number, height: number) {
  const noise = await sharp({ create: { width, height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(1.5)
    .raw()
    .toBuffer();
  const gradient = Buffer.from(
    `<svg width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#e76f51"/><stop offset="1" stop-color="#264653"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)" fill-opacity="0.7"/></svg>`,
  );
  return sharp(noise, { raw: { width, height, channels: 3 } }).composite([{ input: gradient }]).raw().toBuffer();
}

/** Encodes at falling quality until the file fits `maxBytes`. */
async function fit(encode: (quality: number) => Promise<Buffer>, maxBytes: number): Promise<Buffer> {
  for (let quality = 85; ; quality -= 10) {
    const bytes = await encode(quality);
    if (bytes.length <= maxBytes || quality <= 15) return bytes;
  }
}

async function generate(maxBytes: number): Promise<CorpusEntry[]> {
  const n = NEAR_LIMIT;
  const solid = (channels: 3 | 4) => sharp({ create: { width: n, height: n, channels, background: { r: 60, g: 170, b: 100, alpha: 1 } } });
  const [width, height] = [4000, 3000];
  const pixels = await photo(width, height);
  const raw = () => sharp(pixels, { raw: { width, height, channels: 3 } });
  return [
    { name: '12-bit AVIF', mimetype: 'image/avif', filename: 'bomb.avif', normal: false, bytes: await solid(3).avif({ bitdepth: 12, effort: 0 }).toBuffer() },
    { name: 'interlaced 16-bit RGBA PNG', mimetype: 'image/png', filename: 'bomb.png', normal: false, bytes: await png16() },
    {
      name: 'progressive 4:4:4 JPEG',
      mimetype: 'image/jpeg',
      filename: 'bomb.jpg',
      normal: false,
      bytes: await solid(3).jpeg({ progressive: true, chromaSubsampling: '4:4:4', quality: 30 }).toBuffer(),
    },
    { name: 'lossless WebP', mimetype: 'image/webp', filename: 'bomb.webp', normal: false, bytes: await losslessWebp() },
    { name: 'animated GIF, 2000 frames', mimetype: 'image/gif', filename: 'bomb.gif', normal: false, bytes: animatedGif(2000) },
    { name: 'animated WebP, 2000 frames', mimetype: 'image/webp', filename: 'anim.webp', normal: false, bytes: await animatedWebp(2000) },
    { name: '12-MP JPEG photo', mimetype: 'image/jpeg', filename: 'photo.jpg', normal: true, bytes: await fit((quality) => raw().jpeg({ quality }).toBuffer(), maxBytes) },
    { name: '12-MP HEIF (AVIF) photo', mimetype: 'image/avif', filename: 'photo.avif', normal: true, bytes: await fit((quality) => raw().avif({ quality, effort: 0 }).toBuffer(), maxBytes) },
    { name: '12-MP WebP photo', mimetype: 'image/webp', filename: 'photo.webp', normal: true, bytes: await fit((quality) => raw().webp({ quality, effort: 0 }).toBuffer(), maxBytes) },
  ];
}

/**
 * The corpus, generated once per run (~15 s) and cached in the temporary folder. `maxBytes` caps
 * the normal photos (3,000,000 for posts, 500,000 for icons).
 */
export async function imageCorpus(maxBytes: number): Promise<CorpusEntry[]> {
  const folder = path.join(os.tmpdir(), `dormboard-image-bombs-${maxBytes}-v1`);
  const index = path.join(folder, 'index.json');
  if (fs.existsSync(index)) {
    const entries = JSON.parse(fs.readFileSync(index, 'utf8')) as Array<Omit<CorpusEntry, 'bytes'> & { file: string }>;
    return entries.map(({ file, ...entry }) => ({ ...entry, bytes: fs.readFileSync(path.join(folder, file)) }));
  }
  const entries = await generate(maxBytes);
  const staging = fs.mkdtempSync(`${folder}-`);
  entries.forEach((entry, i) => fs.writeFileSync(path.join(staging, `${i}-${entry.filename}`), entry.bytes));
  fs.writeFileSync(
    path.join(staging, 'index.json'),
    JSON.stringify(entries.map(({ bytes: _bytes, ...entry }, i) => ({ ...entry, file: `${i}-${entry.filename}` }))),
  );
  // Another test file may have finished first: either copy is as good.
  fs.renameSync(staging, folder);
  return entries;
}

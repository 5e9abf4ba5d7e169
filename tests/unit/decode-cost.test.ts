import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeCost, MAX_DECODE_BYTES, webpKind, type ImageHeader } from '../../src/server/images/decode-cost.js';
import { animatedWebp, losslessWebp } from '../helpers/image-bombs.js';
import * as fixtures from '../helpers/images.js';
import { imageHeader } from '../helpers/images.js';

const MP = 1_000_000;
const MiB = 2 ** 20;
const header = imageHeader;

describe('decodeCost: bytes a decode holds, by what the header says', () => {
  it.each<[string, ImageHeader, number]>([
    ['baseline JPEG 12 MP', header('jpeg', 4000, 3000), 3 * 12 * MP],
    [
      'progressive 4:4:4 JPEG 50 MP (coefficients kept, 2 bytes a sample)',
      header('jpeg', 7071, 7071, { isProgressive: true, chromaSubsampling: '4:4:4' }),
      9 * 49_999_041,
    ],
    ['progressive 4:2:0 JPEG 12 MP', header('jpeg', 4000, 3000, { isProgressive: true, chromaSubsampling: '4:2:0' }), 6 * 12 * MP],
    ['CMYK JPEG 12 MP', header('jpeg', 4000, 3000, { channels: 4, chromaSubsampling: '4:4:4:4' }), 4 * 12 * MP],
    ['8-bit RGBA PNG 12 MP', header('png', 4000, 3000, { channels: 4 }), 4 * 12 * MP],
    [
      'interlaced 16-bit RGBA PNG 12 MP',
      header('png', 4000, 3000, { channels: 4, bitsPerSample: 16, depth: 'ushort', isProgressive: true }),
      10 * 12 * MP,
    ],
    ['GIF canvas 12 MP', header('gif', 4000, 3000), 5 * 12 * MP],
    ['animated GIF: only the first frame counts', header('gif', 4000, 3000 * 50, { pages: 50, pageHeight: 3000 }), 5 * 12 * MP],
    ['lossy WebP: decoded already shrunk', header('webp', 4000, 3000, { webp: 'lossy' }), 0],
    ['lossy WebP with alpha: a full-size alpha plane', header('webp', 4000, 3000, { webp: 'lossy', hasAlpha: true }), 12 * MP],
    ['lossless WebP 12 MP', header('webp', 4000, 3000, { webp: 'lossless' }), 4 * 12 * MP],
    ['animated WebP 12 MP', header('webp', 4000, 3000, { webp: 'animated', pages: 9 }), 12 * 12 * MP],
    ['8-bit AVIF 12 MP', header('heif', 4000, 3000, { bitsPerSample: 8 }), 19 * 12 * MP],
    ['12-bit AVIF 12 MP', header('heif', 4000, 3000, { bitsPerSample: 12, depth: 'ushort' }), 24 * 12 * MP],
    ['a format we do not decode', header('tiff', 10, 10), Number.POSITIVE_INFINITY],
  ])('%s', (_name, input, bytes) => {
    expect(decodeCost(input)).toBe(bytes);
  });

  it('the budget lets through the photos students send', () => {
    const fits = (input: ImageHeader) => decodeCost(input) <= MAX_DECODE_BYTES;
    expect(MAX_DECODE_BYTES).toBe(224 * MiB);
    // A 12-MP phone photo in every format, and the biggest baseline JPEGs.
    expect(fits(header('heif', 4000, 3000, { bitsPerSample: 8 }))).toBe(true);
    expect(fits(header('webp', 4000, 3000, { webp: 'lossy' }))).toBe(true);
    expect(fits(header('jpeg', 4000, 3000, { isProgressive: true, chromaSubsampling: '4:4:4' }))).toBe(true);
    expect(fits(header('jpeg', 7071, 7071, { chromaSubsampling: '4:2:0' }))).toBe(true);
    expect(fits(header('png', 7071, 7071, { channels: 4 }))).toBe(true);
    // The bombs of issue 12.
    expect(fits(header('heif', 7071, 7071, { bitsPerSample: 12, depth: 'ushort' }))).toBe(false);
    expect(fits(header('png', 7071, 7071, { channels: 4, bitsPerSample: 16, depth: 'ushort', isProgressive: true }))).toBe(false);
    expect(fits(header('jpeg', 7071, 7071, { isProgressive: true, chromaSubsampling: '4:4:4' }))).toBe(false);
    expect(fits(header('gif', 7071, 7071, { pages: 2000 }))).toBe(false);
    expect(fits(header('webp', 7071, 7071, { webp: 'animated', pages: 2000 }))).toBe(false);
    expect(fits(header('heif', 4000, 3000, { bitsPerSample: 10, depth: 'ushort' }))).toBe(false);
  });
});

describe('webpKind', () => {
  it('tells lossy, lossless and animated WebP apart from their chunks', async () => {
    expect(webpKind(await fixtures.webp(50, 30))).toBe('lossy');
    expect(
      webpKind(
        await sharp({ create: { width: 50, height: 30, channels: 3, background: '#fff' } })
          .webp({ lossless: true })
          .toBuffer(),
      ),
    ).toBe('lossless');
    expect(webpKind(await losslessWebp(50, 30))).toBe('lossless');
    expect(webpKind(await animatedWebp(3, 50, 30))).toBe('animated');
  });

  it('stops at a truncated or lying chunk size', () => {
    const bytes = Buffer.from('RIFF\x10\x00\x00\x00WEBPVP8L\xff\xff\xff\x7f', 'latin1');
    expect(webpKind(bytes)).toBe('lossless');
    expect(webpKind(Buffer.from('RIFF\x00\x00\x00\x00WEBP', 'latin1'))).toBe('lossy');
  });
});

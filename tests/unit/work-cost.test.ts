import { describe, expect, it } from 'vitest';
import type { ImageHeader } from '../../src/server/images/decode-cost.js';
import { MAX_WORK_MS, workCost } from '../../src/server/images/work-cost.js';
import { imageHeader } from '../helpers/images.js';

const header = imageHeader;
const MB = 1_000_000;

describe('workCost: CPU milliseconds an upload is expected to take, from its header', () => {
  it("refuses the attack's AVIF: 3065², 12-bit, alpha, 610 bytes", () => {
    const bomb = header('heif', 3065, 3065, { bitsPerSample: 12, depth: 'ushort', hasAlpha: true, channels: 4 });
    expect(workCost(bomb, 610)).toBeGreaterThan(MAX_WORK_MS);
  });

  it.each<[string, ImageHeader, number]>([
    ['12-MP phone JPEG', header('jpeg', 4000, 3000), 3 * MB],
    ['50-MP baseline JPEG (decoded shrunk by 2)', header('jpeg', 7071, 7071), 3 * MB],
    ['12-MP progressive JPEG', header('jpeg', 4000, 3000, { isProgressive: true }), 3 * MB],
    ['phone screenshot PNG', header('png', 1170, 2532, { channels: 4 }), 3 * MB],
    ['12-MP 8-bit PNG', header('png', 4000, 3000), 3 * MB],
    ['12-MP 16-bit interlaced PNG', header('png', 4000, 3000, { bitsPerSample: 16, depth: 'ushort', isProgressive: true }), 3 * MB],
    ['12-MP lossy WebP', header('webp', 4000, 3000), 3 * MB],
    ['12-MP 8-bit AVIF photo of 1 MB', header('heif', 4000, 3000, { bitsPerSample: 8 }), 1 * MB],
    ['47-MP GIF', header('gif', 6850, 6850), 3 * MB],
  ])('lets through %s', (_name, input, bytes) => {
    expect(workCost(input, bytes)).toBeLessThanOrEqual(MAX_WORK_MS);
  });

  it.each<[string, ImageHeader, number]>([
    ['50-MP lossless WebP', header('webp', 7071, 7071, { webp: 'lossless' }), 38],
    ['12-MP 8-bit AVIF of 2.2 MB (AV1 decodes slower the higher the bitrate)', header('heif', 4000, 3000, { bitsPerSample: 8 }), 2.2 * MB],
    ['a format we do not decode', header('tiff', 10, 10), 100],
  ])('refuses %s', (_name, input, bytes) => {
    expect(workCost(input, bytes)).toBeGreaterThan(MAX_WORK_MS);
  });

  it('grows with pixels, bytes (AVIF), bit depth, alpha, progressive coding and interlacing', () => {
    const avif = header('heif', 2000, 2000, { bitsPerSample: 8 });
    expect(workCost({ ...avif, width: 3000 }, MB)).toBeGreaterThan(workCost(avif, MB));
    expect(workCost(avif, 2 * MB)).toBeGreaterThan(workCost(avif, MB));
    expect(workCost({ ...avif, bitsPerSample: 12 }, MB)).toBeGreaterThan(workCost(avif, MB));
    expect(workCost({ ...avif, hasAlpha: true }, MB)).toBeGreaterThan(workCost(avif, MB));
    const jpeg = header('jpeg', 4000, 3000);
    expect(workCost({ ...jpeg, isProgressive: true }, MB)).toBeGreaterThan(workCost(jpeg, MB));
    const png = header('png', 4000, 3000);
    expect(workCost({ ...png, isProgressive: true }, MB)).toBeGreaterThan(workCost(png, MB));
    expect(workCost({ ...png, bitsPerSample: 16 }, MB)).toBeGreaterThan(workCost(png, MB));
  });

  it('counts only the first frame of an animation, and the outputs at most at the 2560 px full size', () => {
    const gif = header('gif', 2000, 2000);
    expect(workCost({ ...gif, height: 2000 * 50, pageHeight: 2000, pages: 50 }, MB)).toBe(workCost(gif, MB));
    // A JPEG twice the full size decodes at half size: its cost is far under four times a full-size one's.
    expect(workCost(header('jpeg', 5120, 5120), MB)).toBeLessThan(2 * workCost(header('jpeg', 2560, 2560), MB));
  });
});

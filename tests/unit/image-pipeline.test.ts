import fs from 'node:fs';
import os from 'node:os';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  FULL_MAX_DIMENSION,
  GRID_WIDTHS,
  ICON_SIZES,
  ImageRejected,
  MAX_INPUT_PIXELS,
  processIcon,
  processImage,
  type ProcessedImage,
  type RejectionReason,
} from '../../src/server/images/image-pipeline.js';
import { animatedGif, animatedWebp, losslessWebp, png16 } from '../helpers/image-bombs.js';
import * as fixtures from '../helpers/images.js';
import { IMAGE_WORK_NICE } from '../../src/server/images/worker-priority.js';

/** Every file the pipeline produced. */
const outputs = (image: ProcessedImage) => [image.full, ...image.variants.map((variant) => variant.body)];

async function expectRejected(input: Buffer, reason: RejectionReason) {
  const error = await processImage(input).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error, 'the image was accepted').toBeInstanceOf(ImageRejected);
  expect((error as ImageRejected).reason).toBe(reason);
}

/** The colour of one pixel of an encoded image. */
async function pixel(image: Buffer, x: number, y: number) {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  const offset = (y * info.width + x) * info.channels;
  return { r: data[offset]!, g: data[offset + 1]!, b: data[offset + 2]! };
}

describe('processImage: accepted formats', () => {
  const cases = [
    ['JPEG', () => fixtures.jpeg(500, 300), 'jpeg'],
    ['PNG', () => fixtures.png(500, 300), 'png'],
    ['WebP', () => fixtures.webp(500, 300), 'webp'],
    ['GIF', () => fixtures.gif(500, 300), 'gif'],
    ['AVIF', () => fixtures.avif(500, 300), 'heif'],
  ] as const;

  it.each(cases)('%s → a full JPEG and WebP variants of the same picture', async (_name, make, inputFormat) => {
    const input = await make();
    // The fixture really is what it claims to be.
    expect((await sharp(input).metadata()).format).toBe(inputFormat);

    const image = await processImage(input);
    expect(image.width).toBe(500);
    expect(image.height).toBe(300);
    const full = await sharp(image.full).metadata();
    expect(full).toMatchObject({ format: 'jpeg', width: 500, height: 300 });
    expect(image.variants.map((variant) => variant.width)).toEqual([...GRID_WIDTHS]);
    for (const variant of image.variants) {
      // 500 px wide: the 400 variant shrinks, the 800 one is not enlarged.
      const meta = await sharp(variant.body).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(Math.min(variant.width, 500));
      expect(meta.height).toBe(Math.round((Math.min(variant.width, 500) * 300) / 500));
    }
  });
});

describe('processImage: metadata is stripped', () => {
  it('drops EXIF (camera, GPS), XMP and the ICC profile from every output', async () => {
    const input = await fixtures.jpeg(900, 600, { metadata: true });
    // The fixture carries all of it, so the test can fail.
    const before = await sharp(input).metadata();
    expect(before.exif).toBeDefined();
    expect(before.xmp).toBeDefined();
    expect(before.icc).toBeDefined();
    for (const secret of Object.values(fixtures.SECRET)) expect(input.includes(secret)).toBe(true);

    const image = await processImage(input);
    for (const output of outputs(image)) {
      const meta = await sharp(output).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(meta.icc).toBeUndefined();
      expect(meta.iptc).toBeUndefined();
      expect(meta.orientation).toBeUndefined();
      for (const secret of Object.values(fixtures.SECRET)) expect(output.includes(secret)).toBe(false);
    }
    expect(image.placeholder.includes(fixtures.SECRET.gps)).toBe(false);
  });
});

describe('processImage: orientation and sizes', () => {
  it('applies the EXIF orientation: a 300×200 JPEG tagged "rotate 90°" is stored 200×300, turned', async () => {
    // Left half red, right half blue, as stored; orientation 6 = turn 90° clockwise to view,
    // which puts the left half on top.
    const width = 300;
    const height = 200;
    const raw = Buffer.alloc(width * height * 3);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) raw.set(x < width / 2 ? [255, 0, 0] : [0, 0, 255], (y * width + x) * 3);
    }
    const input = await sharp(raw, { raw: { width, height, channels: 3 } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    expect(await sharp(input).metadata()).toMatchObject({ width: 300, height: 200, orientation: 6 });

    const image = await processImage(input);
    expect({ width: image.width, height: image.height }).toEqual({ width: 200, height: 300 });
    expect(await sharp(image.full).metadata()).toMatchObject({ width: 200, height: 300 });
    const top = await pixel(image.full, 100, 40);
    const bottom = await pixel(image.full, 100, 260);
    expect(top.r).toBeGreaterThan(200);
    expect(top.b).toBeLessThan(60);
    expect(bottom.b).toBeGreaterThan(200);
    expect(bottom.r).toBeLessThan(60);
    for (const variant of image.variants) {
      // Small input: not enlarged, and turned like the full image.
      expect(await sharp(variant.body).metadata()).toMatchObject({ format: 'webp', width: 200, height: 300 });
    }
  });

  it('makes 400 and 800 px wide WebP variants of a large image, keeping its shape', async () => {
    const image = await processImage(await fixtures.jpeg(1600, 1200, { orientation: 6 }));
    expect({ width: image.width, height: image.height }).toEqual({ width: 1200, height: 1600 });
    const sizes = await Promise.all(
      image.variants.map(async (variant) => ({ width: variant.width, meta: await sharp(variant.body).metadata() })),
    );
    expect(sizes.map(({ width, meta }) => [width, meta.format, meta.width, meta.height])).toEqual([
      [400, 'webp', 400, 533],
      [800, 'webp', 800, 1067],
    ]);
  });

  it.each([
    [3200, 1000, 2560, 800],
    [1000, 3200, 800, 2560],
  ])('caps the full JPEG at %s×%s → %s×%s', async (width, height, fullWidth, fullHeight) => {
    expect(FULL_MAX_DIMENSION).toBe(2560);
    const image = await processImage(await fixtures.jpeg(width, height));
    expect({ width: image.width, height: image.height }).toEqual({ width: fullWidth, height: fullHeight });
    expect(await sharp(image.full).metadata()).toMatchObject({ format: 'jpeg', width: fullWidth, height: fullHeight });
  });

  it('makes a tiny WebP placeholder as a data: URL', async () => {
    const image = await processImage(await fixtures.jpeg(1600, 900));
    const prefix = 'data:image/webp;base64,';
    expect(image.placeholder.startsWith(prefix)).toBe(true);
    expect(image.placeholder.length).toBeLessThan(1000);
    const bytes = Buffer.from(image.placeholder.slice(prefix.length), 'base64');
    const meta = await sharp(bytes).metadata();
    expect(meta.format).toBe('webp');
    expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(16);
    expect(meta.width).toBeGreaterThan(meta.height);
  });
});

describe('processImage: rejections', () => {
  it('an empty file is not an image', () => expectRejected(fixtures.empty(), 'not-an-image'));

  it('an SVG (even a valid one sharp can render) is not an image we accept', () =>
    expectRejected(fixtures.svgWithScript(), 'not-an-image'));

  it('an HTML page is not an image', () => expectRejected(fixtures.html(), 'not-an-image'));

  it('a TIFF (decodable, but not a web format we accept) is not an image', async () =>
    expectRejected(
      await sharp({ create: { width: 20, height: 20, channels: 3, background: '#fff' } })
        .tiff()
        .toBuffer(),
      'not-an-image',
    ));

  it('"GIF89a" glued to a script is not an image', () => expectRejected(fixtures.fakeGifHeader(), 'not-an-image'));

  it('a JPEG cut off in its pixel data is corrupt (not half-decoded)', async () => {
    const input = await fixtures.truncatedJpeg();
    // The header is intact: the size reads fine, only decoding fails.
    expect(await sharp(input).metadata()).toMatchObject({ format: 'jpeg', width: 400, height: 300 });
    await expectRejected(input, 'corrupt');
  });

  it('a JPEG cut off in its header is not an image', async () => expectRejected(await fixtures.headerTruncatedJpeg(), 'not-an-image'));

  it('a 20000×20000 PNG (decompression bomb) is too large, refused from its header alone', async () => {
    const input = fixtures.hugePng();
    expect(input.length).toBeLessThan(3_000_000);
    expect(await sharp(input, { limitInputPixels: false }).metadata()).toMatchObject({ format: 'png', width: 20_000, height: 20_000 });
    await expectRejected(input, 'too-large');
    // Refused by the header check, before any decoding (400 megapixels would take seconds and
    // gigabytes; a refusal while decoding would be 'corrupt', with libvips' message).
    await expect(processImage(input)).rejects.toThrow(/^too-large: 20000x20000$/);
  });

  it('the pixel limit is 50 megapixels: just over it is too large', async () => {
    expect(MAX_INPUT_PIXELS).toBe(50_000_000);
    // 7072 × 7071 = 50,006,112 pixels.
    await expectRejected(fixtures.hugePng(7072, 7071), 'too-large');
  });

  it('a GIF with HTML appended decodes as the GIF it is; the outputs are clean re-encodes without the payload', async () => {
    const input = await fixtures.gifPolyglot();
    expect(input.includes(fixtures.PAYLOAD)).toBe(true);
    const image = await processImage(input);
    expect(await sharp(image.full).metadata()).toMatchObject({ format: 'jpeg', width: 120, height: 80 });
    for (const variant of image.variants) expect((await sharp(variant.body).metadata()).format).toBe('webp');
    for (const output of outputs(image)) {
      expect(output.includes(fixtures.PAYLOAD)).toBe(false);
      expect(output.includes('<script')).toBe(false);
    }
  });
});

describe('processImage / processIcon: image bombs under the pixel limit', () => {
  const solid = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: '#3a6' } });
  // Each is under 50 megapixels but costs far more to decode than the budget: refused from the
  // header, in milliseconds, as a post photo and as an icon. (Before the decode budget each was
  // decoded, four times for a post: 0.9-4.1 GB and 2-20 s.)
  const bombs: Array<[string, () => Promise<Buffer> | Buffer]> = [
    ['a 12-bit AVIF of 3500×3500 (12 MP, ~280 MiB to decode)', () => solid(3500, 3500).avif({ bitdepth: 12, effort: 0 }).toBuffer()],
    ['an interlaced 16-bit RGBA PNG of 7071×7071', () => png16()],
    ['a 16-bit PNG of 50000×1000, not interlaced', () => png16(50_000, 1000, { interlaced: false })],
    [
      'a progressive 4:4:4 JPEG of 6000×6000',
      () => solid(6000, 6000).jpeg({ progressive: true, chromaSubsampling: '4:4:4', quality: 30 }).toBuffer(),
    ],
    ['an animated GIF on a 7071×7071 canvas, 2000 frames', () => animatedGif(2000)],
    ['an animated WebP of 7071×7071, 2000 frames', () => animatedWebp(2000)],
  ];

  it.each(bombs)(
    '%s is too large, refused before decoding',
    async (_name, make) => {
      const input = await make();
      for (const process of [processImage, processIcon]) {
        const error = await (process as (input: Buffer) => Promise<unknown>)(input).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(error, 'the image was accepted').toBeInstanceOf(ImageRejected);
        expect((error as ImageRejected).reason).toBe('too-large');
        expect((error as ImageRejected).message).toMatch(/MiB to decode/);
      }
      // Making the bombs (a 12-bit AVIF, a 6000×6000 JPEG) took over 30 s at a load average of 28.
    },
    120_000,
  );

  it('a 50-MP lossless WebP fits in memory but would take too long: refused as too large (work-cost.ts)', async () => {
    const error = await processImage(await losslessWebp()).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ImageRejected);
    expect((error as ImageRejected).reason).toBe('too-large');
    expect((error as ImageRejected).message).toMatch(/ms to process/);
  });

  it('a 9-MP lossless WebP is within both budgets: decoded once into every output', async () => {
    const image = await processImage(await losslessWebp(3000, 3000));
    expect({ width: image.width, height: image.height }).toEqual({ width: FULL_MAX_DIMENSION, height: FULL_MAX_DIMENSION });
    expect(image.variants.map((variant) => variant.width)).toEqual([...GRID_WIDTHS]);
  });

  it('only the first frame of an animation is decoded and stored', async () => {
    // Frame 1 is the GIF's colour (200, 40, 90) everywhere; frames 2+ are single pixels.
    const image = await processImage(animatedGif(50, 300, 200));
    expect({ width: image.width, height: image.height }).toEqual({ width: 300, height: 200 });
    const centre = await pixel(image.full, 150, 100);
    expect(Math.abs(centre.r - 200) + Math.abs(centre.g - 40) + Math.abs(centre.b - 90)).toBeLessThan(12);
  });
});

describe('processIcon', () => {
  it('makes 96 and 320 px WebP squares of one crop, enlarging small pictures', async () => {
    for (const input of [await fixtures.jpeg(1600, 900, { orientation: 6 }), await fixtures.png(50, 40)]) {
      const icons = await processIcon(input);
      expect(icons.map((icon) => icon.size)).toEqual([...ICON_SIZES]);
      for (const icon of icons)
        expect(await sharp(icon.body).metadata()).toMatchObject({ format: 'webp', width: icon.size, height: icon.size });
    }
  });
});

describe('image work yields the CPU to requests', () => {
  it.skipIf(process.platform !== 'linux')("libvips' threads run at a low priority (nice 10), and only they", async () => {
    // Whatever priority the test run itself has (CI may run it under nice).
    const before = os.getPriority(process.pid);
    await processImage(await fixtures.jpeg(1600, 1200, { noisy: true }));
    const threads = fs.readdirSync('/proc/self/task').map((tid) => ({
      name: fs.readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim(),
      nice: os.getPriority(Number(tid)),
    }));
    const workers = threads.filter((thread) => thread.name === 'libvips worker');
    expect(workers.length).toBeGreaterThan(0);
    expect(workers.every((thread) => thread.nice === IMAGE_WORK_NICE)).toBe(true);
    // The event loop's own thread keeps its priority.
    expect(os.getPriority(process.pid)).toBe(before);
  });
});

import sharp, { type Metadata, type Sharp } from 'sharp';
import { decodeCost, MAX_DECODE_BYTES, webpKind } from './decode-cost.js';
import type { ImageWork } from './image-queue.js';
import { MAX_WORK_MS, workCost } from './work-cost.js';
import { atLowPriority } from './worker-priority.js';

/** Widths of the grid variants (WebP). Cards pick one with srcset. */
export const GRID_WIDTHS = [400, 800] as const;
/** The stored "full-size" image is capped here: larger is never shown on any screen. */
export const FULL_MAX_DIMENSION = 2560;
/**
 * Decompression-bomb guard: a small file can claim a huge canvas. 50 megapixels covers every
 * phone camera students use; a 20000×20000 PNG is refused before it is decoded. What the
 * pixels cost to decode is capped too (decode-cost.ts).
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/**
 * Wall-clock limit of each libvips pipeline. With the decode budget a legitimate photo needs
 * about 2 s at worst (a 12-MP AVIF); this is a backstop for inputs the cost model misjudges.
 * libvips checks it between regions, so a single long call inside a decoder (libheif decodes a
 * whole image in one) finishes before the pipeline is stopped.
 */
export const IMAGE_TIME_LIMIT_SECONDS = 15;

/** Raster formats we accept, by what the bytes are (never by name or declared type). */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);
/** Transparent areas are flattened onto the app's background colour. */
const BACKGROUND = '#121212';

// libvips' operation cache would keep recent decodes (of other people's uploads) in memory;
// every upload is new, so it never helps.
sharp.cache(false);
// One libvips thread per image: the queue's lanes are how image work uses the cores (image-queue.ts),
// so a photo in the cheap lane beside a costly upload gets a core of its own. It is already 1 on
// glibc builds without jemalloc (this one); elsewhere sharp would use one thread per core per image.
sharp.concurrency(1);

export type RejectionReason = 'not-an-image' | 'too-large' | 'corrupt';

export class ImageRejected extends Error {
  constructor(
    readonly reason: RejectionReason,
    detail: string,
  ) {
    super(`${reason}: ${detail}`);
    this.name = 'ImageRejected';
  }
}

export interface ProcessedImage {
  /** Dimensions of the stored full-size image, after auto-rotation. */
  width: number;
  height: number;
  full: Buffer;
  variants: Array<{ width: number; body: Buffer }>;
  /** A ~16 px blurred preview as a data: URL, shown while the real image loads. */
  placeholder: string;
}

/** The decoded intermediate every output is made from: 8-bit sRGB(A), already turned upright. */
interface Decoded {
  data: Buffer;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * Reads the header only: is this a raster image we accept, is it a sane size, and can we afford
 * to decode it, in memory and in time? A refusal here costs about a millisecond whatever the file
 * claims. Returns what its processing is expected to cost, in CPU milliseconds (work-cost.ts) and
 * decode memory, for the queue.
 */
export async function inspectImage(input: Buffer): Promise<ImageWork> {
  if (input.length === 0) throw new ImageRejected('not-an-image', 'empty file');
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageRejected('not-an-image', (error as Error).message);
  }
  if (!ACCEPTED_FORMATS.has(metadata.format)) throw new ImageRejected('not-an-image', `format ${metadata.format}`);
  // Only the first frame of an animation is decoded (open() asks for one page), so only its size counts.
  const pixels = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0);
  if (pixels > MAX_INPUT_PIXELS) throw new ImageRejected('too-large', `${metadata.width}x${metadata.height}`);
  const header = { ...metadata, webp: metadata.format === 'webp' ? webpKind(input) : undefined };
  const memory = decodeCost(header);
  if (memory > MAX_DECODE_BYTES)
    throw new ImageRejected(
      'too-large',
      `${metadata.format} ${metadata.width}x${metadata.height} needs ~${Math.round(memory / 2 ** 20)} MiB to decode`,
    );
  const work = workCost(header, input.length);
  if (work > MAX_WORK_MS)
    throw new ImageRejected(
      'too-large',
      `${metadata.format} ${metadata.width}x${metadata.height} needs ~${Math.round(work)} ms to process`,
    );
  return { cost: work, memory };
}

/**
 * The one decode of an upload: first frame only, shrunk while decoding where the format allows
 * (JPEG, lossy WebP), read sequentially where it can stream (JPEG, non-interlaced PNG).
 */
function open(input: Buffer): Sharp {
  // failOn 'warning': a truncated or damaged file is refused, not half-decoded.
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning', sequentialRead: true, pages: 1, page: 0 }).timeout({
    seconds: IMAGE_TIME_LIMIT_SECONDS,
  });
}

/** Decodes once into raw pixels (sharp's raw output is 8-bit sRGB, with alpha when there is one). */
async function decode(pipeline: Sharp): Promise<Decoded> {
  const { data, info } = await pipeline.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/** A new pipeline over the decoded pixels: no decoding, no file format, nothing to refuse. */
function from(decoded: Decoded): Sharp {
  const { data, width, height, channels } = decoded;
  return sharp(data, { raw: { width, height, channels } }).timeout({ seconds: IMAGE_TIME_LIMIT_SECONDS });
}

/** Runs the header check, then `work`; any libvips failure past the header is 'corrupt'. */
async function guarded<T>(input: Buffer, work: () => Promise<T>): Promise<T> {
  await inspectImage(input);
  try {
    return await atLowPriority(work);
  } catch (error) {
    throw new ImageRejected('corrupt', (error as Error).message);
  }
}

/**
 * Turns uploaded bytes into what we store: auto-rotated, every bit of metadata (EXIF, GPS, XMP,
 * ICC) dropped by re-encoding, a capped full-size JPEG, WebP grid variants and a placeholder.
 *
 * The input is decoded once, to the size of the largest output; the smaller outputs are made
 * from those pixels. The full JPEG is encoded beside the WebP outputs (made one after another),
 * so an upload holds at most two libuv threads (image-queue.ts POOL_THREADS_PER_IMAGE), and only
 * for that last step.
 * mozjpeg's trellis search is left off: 4-10x slower for a few percent of bytes.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  return guarded(input, async () => {
    const decoded = await decode(
      open(input).rotate().resize({ width: FULL_MAX_DIMENSION, height: FULL_MAX_DIMENSION, fit: 'inside', withoutEnlargement: true }),
    );
    const webps = async () => {
      const variants: ProcessedImage['variants'] = [];
      for (const width of GRID_WIDTHS) {
        const body = await from(decoded).resize({ width, withoutEnlargement: true }).webp({ quality: 72, effort: 2 }).toBuffer();
        variants.push({ width, body });
      }
      const placeholder = await from(decoded).resize(16, 16, { fit: 'inside' }).webp({ quality: 40 }).toBuffer();
      return { variants, placeholder };
    };
    const [full, { variants, placeholder }] = await Promise.all([
      from(decoded).flatten({ background: BACKGROUND }).jpeg({ quality: 82, progressive: true }).toBuffer(),
      webps(),
    ]);
    return {
      width: decoded.width,
      height: decoded.height,
      full,
      variants,
      placeholder: `data:image/webp;base64,${placeholder.toString('base64')}`,
    };
  });
}

/** Square sizes of a profile icon (WebP): small for lists and the bottom bar, large for profiles. */
export const ICON_SIZES = [96, 320] as const;

/**
 * A profile icon: auto-rotated, centre-cropped to squares, metadata dropped. Decoded once into
 * the largest square (the crop chosen by libvips' attention strategy); the smaller one is
 * scaled from it, so both show the same crop.
 */
export async function processIcon(input: Buffer): Promise<Array<{ size: number; body: Buffer }>> {
  return guarded(input, async () => {
    const largest = Math.max(...ICON_SIZES);
    const decoded = await decode(open(input).rotate().resize(largest, largest, { fit: 'cover', position: 'attention' }));
    const icons: Array<{ size: number; body: Buffer }> = [];
    for (const size of ICON_SIZES) {
      icons.push({ size, body: await from(decoded).resize(size, size).webp({ quality: 80 }).toBuffer() });
    }
    return icons;
  });
}

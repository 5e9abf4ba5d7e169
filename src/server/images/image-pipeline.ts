import sharp, { type Metadata, type Sharp } from 'sharp';

/** Widths of the grid variants (WebP). Cards pick one with srcset. */
export const GRID_WIDTHS = [400, 800] as const;
/** The stored "full-size" image is capped here: larger is never shown on any screen. */
export const FULL_MAX_DIMENSION = 2560;
/**
 * Decompression-bomb guard: a small file can claim a huge canvas. 50 megapixels covers every
 * phone camera students use; a 20000×20000 PNG is refused before it is decoded.
 */
export const MAX_INPUT_PIXELS = 50_000_000;

/** Raster formats we accept, by what the bytes are (never by name or declared type). */
const ACCEPTED_FORMATS = new Set(['jpeg', 'png', 'webp', 'gif', 'heif']);
/** Transparent areas are flattened onto the app's background colour. */
const BACKGROUND = '#121212';

export type RejectionReason = 'not-an-image' | 'too-large' | 'corrupt';

export class ImageRejected extends Error {
  constructor(readonly reason: RejectionReason, detail: string) {
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

function open(input: Buffer): Sharp {
  // failOn 'warning': a truncated or damaged file is refused, not half-decoded.
  return sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning', sequentialRead: true });
}

/** Reads the header only: is this a raster image we accept, and is it a sane size? */
async function inspect(input: Buffer): Promise<void> {
  if (input.length === 0) throw new ImageRejected('not-an-image', 'empty file');
  let metadata: Metadata;
  try {
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch (error) {
    throw new ImageRejected('not-an-image', (error as Error).message);
  }
  if (!ACCEPTED_FORMATS.has(metadata.format)) throw new ImageRejected('not-an-image', `format ${metadata.format}`);
  // Only the first frame of an animation is decoded, so only its size counts.
  const pixels = (metadata.width ?? 0) * (metadata.pageHeight ?? metadata.height ?? 0);
  if (pixels > MAX_INPUT_PIXELS) throw new ImageRejected('too-large', `${metadata.width}x${metadata.height}`);
}

/**
 * Turns uploaded bytes into what we store: auto-rotated, every bit of metadata (EXIF, GPS, XMP,
 * ICC) dropped by re-encoding, a capped full-size JPEG, WebP grid variants and a placeholder.
 */
export async function processImage(input: Buffer): Promise<ProcessedImage> {
  await inspect(input);
  try {
    // Separate pipelines rather than clone(): each lets libvips shrink JPEGs while decoding
    // (1/2, 1/4, 1/8 scale), so the small outputs cost a fraction of a full decode.
    // mozjpeg's trellis search is left off: 4-10x slower for a few percent of bytes.
    const [full, placeholder, ...variants] = await Promise.all([
      open(input)
        .rotate()
        .resize({ width: FULL_MAX_DIMENSION, height: FULL_MAX_DIMENSION, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: BACKGROUND })
        .jpeg({ quality: 82, progressive: true })
        .toBuffer({ resolveWithObject: true }),
      open(input).rotate().resize(16, 16, { fit: 'inside' }).webp({ quality: 40 }).toBuffer(),
      ...GRID_WIDTHS.map((width) =>
        open(input)
          .rotate()
          .resize({ width, withoutEnlargement: true })
          .webp({ quality: 72, effort: 2 })
          .toBuffer({ resolveWithObject: true }),
      ),
    ]);
    return {
      width: full.info.width,
      height: full.info.height,
      full: full.data,
      variants: variants.map((variant, index) => ({ width: GRID_WIDTHS[index]!, body: variant.data })),
      placeholder: `data:image/webp;base64,${placeholder.toString('base64')}`,
    };
  } catch (error) {
    throw new ImageRejected('corrupt', (error as Error).message);
  }
}

/** Square sizes of a profile icon (WebP): small for lists and the bottom bar, large for profiles. */
export const ICON_SIZES = [96, 320] as const;

/** A profile icon: auto-rotated, centre-cropped to squares, metadata dropped. */
export async function processIcon(input: Buffer): Promise<Array<{ size: number; body: Buffer }>> {
  await inspect(input);
  try {
    return await Promise.all(
      ICON_SIZES.map(async (size) => ({
        size,
        body: await open(input).rotate().resize(size, size, { fit: 'cover', position: 'attention' }).webp({ quality: 80 }).toBuffer(),
      })),
    );
  } catch (error) {
    throw new ImageRejected('corrupt', (error as Error).message);
  }
}

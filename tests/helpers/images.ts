import { crc32, deflateSync } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import type { ImageHeader } from '../../src/server/images/decode-cost.js';

/**
 * Image fixtures, generated in code (nothing binary is committed). Every generator is fast:
 * the largest (the 20000×20000 PNG) is a 1-bit image whose pixel data deflates to ~50 KB.
 */

/** Strings planted in metadata, so a test can prove they are gone from the output bytes. */
export const SECRET = {
  make: 'SecretCamMake',
  gps: 'SecretGpsDatum',
  xmp: 'SecretXmpCreator',
} as const;

/** A colourful, noisy picture: compresses poorly, so truncating it cuts into pixel data. */
function noise(width: number, height: number): Sharp {
  const channels = 3;
  const pixels = Buffer.alloc(width * height * channels);
  let seed = 12345;
  for (let i = 0; i < pixels.length; i += 1) {
    // A tiny LCG: deterministic and fast.
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = seed >> 23;
  }
  return sharp(pixels, { raw: { width, height, channels } });
}

function solid(width: number, height: number, alpha = 1): Sharp {
  return sharp({ create: { width, height, channels: 4, background: { r: 200, g: 40, b: 90, alpha } } });
}

export interface JpegOptions {
  /** EXIF orientation tag (6 = rotate 90° clockwise to display). */
  orientation?: number;
  /** Plant EXIF (camera make, GPS), XMP and an ICC profile. */
  metadata?: boolean;
  /** Random pixels instead of one colour. */
  noisy?: boolean;
}

export async function jpeg(width: number, height: number, options: JpegOptions = {}): Promise<Buffer> {
  let image = options.noisy ? noise(width, height) : solid(width, height);
  if (options.metadata) {
    image = image
      .withExif({
        IFD0: { Make: SECRET.make, Model: 'Model X' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '51/1 30/1 0/1',
          GPSLongitudeRef: 'W',
          GPSLongitude: '0/1 7/1 0/1',
          GPSMapDatum: SECRET.gps,
        },
      })
      .withXmp(
        '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
          `<rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:creator>${SECRET.xmp}</dc:creator></rdf:Description>` +
          '</rdf:RDF></x:xmpmeta>',
      )
      .withIccProfile('p3');
  }
  if (options.orientation !== undefined) image = image.withMetadata({ orientation: options.orientation });
  return image.jpeg({ quality: 90 }).toBuffer();
}

export const png = (width: number, height: number) => solid(width, height, 0.5).png().toBuffer();
export const webp = (width: number, height: number) => solid(width, height, 0.5).webp().toBuffer();
export const gif = (width: number, height: number) => solid(width, height).gif().toBuffer();
export const avif = (width: number, height: number) => solid(width, height).avif().toBuffer();

/**
 * A valid JPEG padded with comment (COM) segments to exactly `size` bytes: still a perfectly
 * decodable image, for testing byte limits at the boundary.
 */
export async function jpegOfSize(size: number): Promise<Buffer> {
  const base = await jpeg(64, 64);
  const segments: Buffer[] = [];
  // SOI, then comments, then the rest of the original file.
  let remaining = size - base.length;
  if (remaining < 4) throw new Error(`cannot pad a ${base.length}-byte JPEG to ${size} bytes`);
  while (remaining > 0) {
    // A segment is FF FE, a 2-byte length (counting itself, at most 65535), then data.
    let total = Math.min(65537, remaining);
    // Never leave a remainder too small for one more segment (4 bytes minimum).
    if (remaining - total > 0 && remaining - total < 4) total -= 4;
    const segment = Buffer.alloc(total, 0x20);
    segment[0] = 0xff;
    segment[1] = 0xfe;
    segment.writeUInt16BE(total - 2, 2);
    segments.push(segment);
    remaining -= total;
  }
  const out = Buffer.concat([base.subarray(0, 2), ...segments, base.subarray(2)]);
  if (out.length !== size) throw new Error(`padded JPEG is ${out.length} bytes, wanted ${size}`);
  return out;
}

/** A JPEG cut off inside its pixel data: the header (and so the size) still reads fine. */
export async function truncatedJpeg(): Promise<Buffer> {
  const full = await jpeg(400, 300, { noisy: true });
  return full.subarray(0, Math.floor(full.length * 0.6));
}

/** A JPEG cut off inside its header: not even the size can be read. */
export async function headerTruncatedJpeg(): Promise<Buffer> {
  const full = await jpeg(400, 300);
  return full.subarray(0, 40);
}

/** One PNG chunk: length, type, data and its CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body) >>> 0);
  return Buffer.concat([length, body, crc]);
}

/**
 * A complete, valid 20000×20000 PNG (400 megapixels) of a few tens of KB: 1-bit greyscale,
 * every pixel black. Decoded, it would need gigabytes: a decompression bomb.
 */
export function hugePng(width = 20_000, height = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering
  ihdr[12] = 0; // no interlace
  // Each row: a filter byte (0) and ceil(width / 8) bytes of pixels; all zero.
  const raw = Buffer.alloc((1 + Math.ceil(width / 8)) * height);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(raw, { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The marker planted in active-content fixtures. */
export const PAYLOAD = 'alert("dormboard-xss")';

export const svgWithScript = () =>
  Buffer.from(
    `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">` +
      `<script>${PAYLOAD}</script><rect width="100" height="100" fill="red"/></svg>`,
  );

export const html = () => Buffer.from(`<!doctype html><html><body><script>${PAYLOAD}</script></body></html>`);

export const empty = () => Buffer.alloc(0);

/** A real, decodable GIF with an HTML/JS payload appended after its trailer: a GIF/HTML polyglot. */
export async function gifPolyglot(): Promise<Buffer> {
  return Buffer.concat([await gif(120, 80), Buffer.from(`<html><script>${PAYLOAD}</script></html>`)]);
}

/** The classic "GIF89a" header glued to a script: it looks like a GIF only to a sniffer. */
export const fakeGifHeader = () => Buffer.from(`GIF89a/*<html><script>*/${PAYLOAD}</script></html>`);

/** What the pipeline reads of an image's header, for the cost functions' unit tests (3 channels unless told). */
export const imageHeader = (format: string, width: number, height: number, extra: Partial<ImageHeader> = {}): ImageHeader => ({
  format,
  width,
  height,
  channels: 3,
  ...extra,
});

/**
 * What decoding an image's first frame costs in memory, read from its header. A pixel limit
 * alone is not enough: at 50 megapixels a 1 KB 12-bit AVIF needs over 1 GB to decode, an
 * interlaced 16-bit PNG 470 MB and a progressive JPEG 340 MB, while a baseline JPEG of the same
 * size streams through in 50 MB.
 *
 * The figures are bytes per pixel of the whole frame, measured as peak RSS with sharp 0.35 /
 * libvips 8.18 (one decode, resized to the 2560 px full-size image) and rounded up. Where a
 * format can stream (baseline JPEG, non-interlaced PNG) the cost is still counted as the whole
 * decoded image: a very wide picture shrunk a lot makes libvips buffer nearly all of it (a
 * 50000×1000 16-bit PNG held 420 MB), so only the whole image is a bound that always holds.
 */

/** The header fields the cost depends on (a subset of sharp's metadata). */
export interface ImageHeader {
  format: string;
  width?: number;
  height?: number;
  /** Height of one frame of an animation (GIF, WebP); absent for still images. */
  pageHeight?: number;
  pages?: number;
  /** Bands after decoding: palette images decode to RGB(A). */
  channels?: number;
  /** Bits per sample in the file (8, 10, 12, 16); absent means 8. */
  bitsPerSample?: number;
  /** libvips' sample format after decoding: 'ushort' for more than 8 bits. */
  depth?: string;
  /** Progressive JPEG, or Adam7-interlaced PNG. */
  isProgressive?: boolean;
  /** JPEG only: '4:2:0', '4:4:4', '4:2:2', '4:4:4:4' (CMYK)... */
  chromaSubsampling?: string;
  hasAlpha?: boolean;
  /** WebP only: how the bitstream is coded (webpKind). */
  webp?: WebpKind;
}

/**
 * Above this estimate an image is refused as too large. With everything else an upload holds at
 * once (its bytes, the ≤ 2560 px decoded intermediate of up to 25 MiB, the encoders), the peak
 * stays under 256 MiB above idle. It lets through what students really send: a 12-MP HEIF/AVIF
 * photo (~217 MiB), any baseline JPEG or non-interlaced 8-bit PNG up to the 50-megapixel limit, a
 * progressive 4:4:4 JPEG up to ~26 MP; it refuses a 12-bit AVIF over ~9.7 MP, an interlaced
 * 16-bit RGBA PNG over ~23 MP and a GIF canvas over ~47 MP.
 */
export const MAX_DECODE_BYTES = 224 * 2 ** 20;

export type WebpKind = 'lossy' | 'lossless' | 'animated';

/**
 * How a WebP file is coded, from its RIFF chunks (sharp's metadata does not say): 'animated'
 * when it has animation frames, 'lossless' for a VP8L bitstream, else 'lossy'.
 */
export function webpKind(bytes: Buffer): WebpKind {
  let kind: WebpKind = 'lossy';
  // 'RIFF' size 'WEBP', then chunks: fourcc, little-endian size, data padded to even length.
  for (let at = 12; at + 8 <= bytes.length;) {
    const fourcc = bytes.toString('latin1', at, at + 4);
    if (fourcc === 'ANMF') return 'animated';
    if (fourcc === 'VP8L') kind = 'lossless';
    const size = bytes.readUInt32LE(at + 4);
    at += 8 + size + (size % 2);
  }
  return kind;
}

/** JPEG samples per pixel, summed over components, for a chroma subsampling string. */
function jpegSamplesPerPixel(subsampling: string | undefined, channels: number): number {
  switch (subsampling) {
    case '4:2:0':
    case '4:1:1':
      return 1.5;
    case '4:2:2':
    case '4:4:0':
      return 2;
    case '4:4:4:4':
      return 4;
    default:
      // 4:4:4, greyscale, or unknown: every component at full resolution.
      return Math.max(channels, 1);
  }
}

/** Estimated bytes held while decoding the first frame of an image with this header. */
export function decodeCost(header: ImageHeader): number {
  const pixels = (header.width ?? 0) * (header.pageHeight ?? header.height ?? 0);
  const channels = header.channels ?? 3;
  const deep = (header.bitsPerSample ?? 8) > 8 || header.depth === 'ushort';
  const bytesPerPixel = channels * (deep ? 2 : 1);
  switch (header.format) {
    case 'jpeg':
      // Progressive: libjpeg keeps every DCT coefficient (2 bytes a sample) until the last scan.
      return pixels * (bytesPerPixel + (header.isProgressive ? 2 * jpegSamplesPerPixel(header.chromaSubsampling, channels) : 0));
    case 'png':
      // Interlaced: decoded whole, plus libspng's pass buffers (measured 1.17x).
      return pixels * bytesPerPixel * (header.isProgressive ? 1.25 : 1);
    case 'gif':
      // Every frame is drawn on an RGBA canvas of the whole screen (measured 4.5 bytes a pixel).
      return pixels * 5;
    case 'webp':
      // Lossy frames are decoded already shrunk to the output, except a full-size alpha plane;
      // lossless ones into a whole ARGB buffer; animations onto a canvas beside the frame.
      if (header.webp === 'animated') return pixels * 12;
      if (header.webp === 'lossless') return pixels * 4;
      return header.hasAlpha ? pixels : 0;
    case 'heif':
      // libheif and libaom decode the whole image, into several full-size planes (measured
      // 18.7 bytes a pixel at 8 bits, 23.7 at 10 and 12 bits; alpha adds a plane).
      return pixels * ((deep ? 24 : 19) + (header.hasAlpha ? 1 : 0));
    default:
      return Number.POSITIVE_INFINITY;
  }
}

import type { ImageHeader } from './decode-cost.js';

/**
 * What an upload is expected to cost the image worker, in CPU milliseconds, read from its header
 * before any decoding: the queue charges uploads by it (image-queue.ts), and one over
 * MAX_WORK_MS is refused as too large. The pixel and memory limits alone let a 610-byte 12-bit
 * 4:4:4 AVIF with alpha (3065², under both) hold the only worker for 1.1 s of CPU, 4.5-15 s of
 * wall time on a busy machine, about 30 times a phone photo.
 *
 * cost = the outputs (resize and every encode, per output megapixel: the full size is at most
 *        2560 px a side) + the decode (per decoded megapixel, by format, bit depth and alpha;
 *        for AVIF/HEIF also per megabyte of file, as AV1's decode time follows the bitrate)
 *
 * The factors are CPU time measured on the 2-core machine the app was built on (sharp 0.35.5,
 * libvips 8.18.7, aom 3.15.1) by bench/image-decode-cost.ts, at 4 MP, best of 3, with the
 * content that costs most (noise, top quality) and rounded up (BENCHMARKS.md, issue 26):
 *   outputs 42-61 ms/MP; decode: baseline JPEG 8 (4:2:0) to 19 (4:4:4, q100), progressive
 *   JPEG 46, PNG 9 (8-bit), 18 (interlaced), 26 (16-bit), GIF 9, WebP lossy 44, with alpha 51,
 *   lossless 31; AVIF 8-bit 4:2:0 88 at 0.37 MB/MP and 165 at 1.05 MB/MP (so ~46 + 115 a MB),
 *   12-bit 107, with alpha 95, 77 for the solid 12-bit 4:4:4 alpha bomb, and a 3-MB 12-bit
 *   4:4:4 alpha one of noise ~82 a MP + ~190 a MB.
 * Whole images check them (measured, estimate): a 12-MP JPEG photo 285 ms (535), a 48-MP JPEG
 * 317 (shrunk while decoded; 535), a 12-MP AVIF photo of 2.2 MB 993 (1087: refused, as is
 * one over ~1.3 MB), the AVIF bomb 1116 (1163: refused).
 */

/** Above this an upload is refused as too large: about four phone photos, a second of a core. */
export const MAX_WORK_MS = 1_000;

/** The full-size image is at most this many pixels a side (image-pipeline.ts FULL_MAX_DIMENSION). */
const OUTPUT_MAX_SIDE = 2560;
const OUTPUT_MS_PER_MP = 60;
const MP = 1_000_000;
const MB = 1_000_000;

/** JPEG decodes shrunk by 2, 4 or 8 when the output is at least that much smaller (DCT scaling). */
function jpegShrink(width: number, height: number): number {
  const ratio = Math.max(width, height) / OUTPUT_MAX_SIDE;
  let shrink = 1;
  while (shrink < 8 && shrink * 2 <= ratio) shrink *= 2;
  return shrink;
}

/** Decode milliseconds per decoded megapixel, and per megabyte of file. */
function decodeRate(header: ImageHeader): { perMp: number; perMb: number } {
  const deep = (header.bitsPerSample ?? 8) > 8 || header.depth === 'ushort';
  switch (header.format) {
    case 'jpeg':
      return { perMp: header.isProgressive ? 50 : 20, perMb: 0 };
    case 'png':
      return { perMp: 10 * (deep ? 2.6 : 1) * (header.isProgressive ? 2 : 1), perMb: 0 };
    case 'gif':
      return { perMp: 10, perMb: 0 };
    case 'webp':
      return { perMp: 55, perMb: 0 };
    case 'heif': {
      // Chroma subsampling is not in the header sharp reads: every AVIF is charged as 4:4:4.
      // Deeper samples and an alpha plane cost more a byte too (a 3-MB 12-bit one with alpha: ~190).
      const scale = (deep ? 1.4 : 1) * (header.hasAlpha ? 1.3 : 1);
      return { perMp: 45 * scale, perMb: 115 * scale };
    }
    default:
      return { perMp: Number.POSITIVE_INFINITY, perMb: 0 };
  }
}

/** Expected CPU milliseconds of processing an upload of `bytes` bytes with this header. */
export function workCost(header: ImageHeader, bytes: number): number {
  const width = header.width ?? 0;
  const height = header.pageHeight ?? header.height ?? 0;
  const pixels = width * height;
  const output = pixels * Math.min(1, OUTPUT_MAX_SIDE / Math.max(width, height, 1)) ** 2;
  const decoded = header.format === 'jpeg' ? pixels / jpegShrink(width, height) ** 2 : pixels;
  const rate = decodeRate(header);
  return (OUTPUT_MS_PER_MP * output) / MP + (rate.perMp * decoded) / MP + (rate.perMb * bytes) / MB;
}

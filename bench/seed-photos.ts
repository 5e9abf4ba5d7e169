import sharp from 'sharp';
import { int, mulberry32, pick, type Random } from './seed-random.js';

/**
 * Photo-like JPEGs made in memory: a two-tone "scene" gradient, soft blotches (smooth value
 * noise), a few solid "objects" with shading, fine texture and sensor grain. Texture and grain
 * are what make a JPEG big, so each photo gets its own amount, aimed at an input size between
 * 0.5 and 3 MB at quality 90: phone pictures the client's compressor left alone.
 *
 * The smooth parts are drawn at a quarter of the size in JavaScript, libvips scales them up, one
 * JavaScript pass adds texture and grain (cheaper than compositing full-size noise layers with
 * libvips), and sharp encodes the result.
 */

/** Width:height shapes students actually post: portrait phone shots dominate. */
const ASPECTS: ReadonlyArray<readonly [number, number]> = [
  [3, 4],
  [3, 4],
  [9, 16],
  [9, 16],
  [4, 3],
  [1, 1],
  [1, 1],
  [16, 9],
  [2, 3],
];

/** [top, bottom] colours of a scene: dorm walls, sky over campus, night party, library wood... */
const SCENES: ReadonlyArray<readonly [RGB, RGB]> = [
  [
    [236, 228, 214],
    [150, 118, 84],
  ],
  [
    [120, 170, 230],
    [70, 110, 60],
  ],
  [
    [24, 20, 60],
    [220, 90, 40],
  ],
  [
    [200, 170, 130],
    [90, 60, 40],
  ],
  [
    [240, 240, 235],
    [180, 180, 175],
  ],
  [
    [40, 45, 55],
    [160, 140, 120],
  ],
  [
    [250, 200, 150],
    [120, 60, 80],
  ],
  [
    [180, 210, 200],
    [230, 230, 220],
  ],
];

type RGB = readonly [number, number, number];

export interface PhotoOptions {
  /** Force this width (tests use small photos); default 1600–3000 px. */
  width?: number;
}

export interface GeneratedPhoto {
  jpeg: Buffer;
  width: number;
  height: number;
}

const clampByte = (value: number) => (value < 0 ? 0 : value > 255 ? 255 : value);
const smooth = (t: number) => t * t * (3 - 2 * t);

/** A (cols+1)×(rows+1) lattice of RGB values, bilinearly interpolated with smoothstep weights. */
class Lattice {
  readonly values: Float32Array;
  constructor(
    readonly cols: number,
    readonly rows: number,
    fill: (col: number, row: number) => RGB,
  ) {
    this.values = new Float32Array((cols + 1) * (rows + 1) * 3);
    for (let row = 0; row <= rows; row++) {
      for (let col = 0; col <= cols; col++) {
        const [r, g, b] = fill(col, row);
        const at = (row * (cols + 1) + col) * 3;
        this.values[at] = r;
        this.values[at + 1] = g;
        this.values[at + 2] = b;
      }
    }
  }

  /** The lattice interpolated vertically at fraction `y` (0..1): one RGB value per column. */
  rowAt(y: number, out: Float32Array): void {
    const position = y * this.rows;
    const row = Math.min(Math.floor(position), this.rows - 1);
    const t = smooth(position - row);
    const stride = (this.cols + 1) * 3;
    const top = row * stride;
    for (let index = 0; index < stride; index++) {
      const a = this.values[top + index]!;
      out[index] = a + (this.values[top + stride + index]! - a) * t;
    }
  }
}

function randomColor(random: Random): RGB {
  return [int(random, 20, 235), int(random, 20, 235), int(random, 20, 235)];
}

/** Side of the square noise tiles; a power of two so wrapping is a mask. */
const TILE = 1024;
let tiles: { texture: Float32Array; grain: Float32Array } | undefined;

/**
 * Two noise tiles shared by every photo (each photo reads them at its own offsets): "texture"
 * is noise blurred to a 2–5 px grain (fabric, paper, foliage), "grain" is per-pixel sensor
 * noise. Both are scaled to about ±1.
 */
function noiseTiles(): { texture: Float32Array; grain: Float32Array } {
  if (tiles) return tiles;
  const random = mulberry32(0x5eed);
  const grain = new Float32Array(TILE * TILE);
  for (let index = 0; index < grain.length; index++) grain[index] = random() * 2 - 1;
  // Two box-blur passes (horizontal, vertical) of radius 2 over a fresh noise field.
  let texture = new Float32Array(TILE * TILE);
  for (let index = 0; index < texture.length; index++) texture[index] = random() * 2 - 1;
  const radius = 2;
  const span = radius * 2 + 1;
  for (const vertical of [false, true]) {
    const out = new Float32Array(TILE * TILE);
    for (let line = 0; line < TILE; line++) {
      for (let along = 0; along < TILE; along++) {
        let sum = 0;
        for (let offset = -radius; offset <= radius; offset++) {
          const position = (along + offset) & (TILE - 1);
          sum += texture[vertical ? position * TILE + line : line * TILE + position]!;
        }
        out[vertical ? along * TILE + line : line * TILE + along] = sum / span;
      }
    }
    texture = out;
  }
  // A 5×5 box blur of uniform ±1 noise has a standard deviation of ~0.115: scale back to ±1-ish.
  for (let index = 0; index < texture.length; index++) texture[index]! *= 5;
  tiles = { texture, grain };
  return tiles;
}

/** The smooth parts (scene, blotches, objects) are drawn at this fraction of full size. */
const BASE_SCALE = 4;

export async function generatePhoto(random: Random, options: PhotoOptions = {}): Promise<GeneratedPhoto> {
  const [aspectW, aspectH] = pick(random, ASPECTS);
  let width = options.width ?? int(random, 1600, 3000);
  let height = Math.round((width * aspectH) / aspectW);
  // Tall shots are capped at 3600 px high (≤ ~10 MP, like a phone camera).
  if (options.width === undefined && height > 3600) {
    height = 3600;
    width = Math.round((height * aspectW) / aspectH);
  }
  const baseWidth = Math.max(2, Math.round(width / BASE_SCALE));
  const baseHeight = Math.max(2, Math.round(height / BASE_SCALE));

  const [top, bottom] = pick(random, SCENES);
  const tilt = (random() - 0.5) * 0.6;
  // Scene: a 4×4 lattice from the top colour to the bottom one, each point nudged.
  const scene = new Lattice(4, 4, (col, row) => {
    const t = Math.min(1, Math.max(0, row / 4 + tilt * (col / 4 - 0.5)));
    return [0, 1, 2].map((c) => top[c]! + (bottom[c]! - top[c]!) * t + (random() - 0.5) * 60) as unknown as RGB;
  });
  // Blotches: value noise with 25–70 px cells, mostly brightness with a little colour.
  const blotchAmplitude = 10 + random() * 30;
  const cell = int(random, 25, 70) / BASE_SCALE;
  const blotches = new Lattice(Math.ceil(baseWidth / cell), Math.ceil(baseHeight / cell), () => {
    const light = (random() - 0.5) * 2 * blotchAmplitude;
    return [light + (random() - 0.5) * 8, light + (random() - 0.5) * 8, light + (random() - 0.5) * 8];
  });
  // Detail decides the file size: aim each photo at its own bits per pixel, so input sizes
  // spread over 0.5–3 MB whatever the dimensions (a small picture simply can't be big).
  const pixelCount = width * height;
  const lowBpp = Math.max(MIN_BPP, (MIN_BYTES * 1.15 * 8) / pixelCount);
  const highBpp = Math.min(MAX_BPP, (MAX_BYTES * 0.92 * 8) / pixelCount);
  const targetBpp = options.width !== undefined || lowBpp >= highBpp ? 1.5 : lowBpp * (highBpp / lowBpp) ** random();
  let texture = textureFor(targetBpp);

  const base = Buffer.allocUnsafe(baseWidth * baseHeight * 3);
  const sceneRow = new Float32Array((scene.cols + 1) * 3);
  const blotchRow = new Float32Array((blotches.cols + 1) * 3);
  const sceneStep = scene.cols / baseWidth;
  const blotchStep = blotches.cols / baseWidth;
  for (let y = 0; y < baseHeight; y++) {
    scene.rowAt(y / baseHeight, sceneRow);
    blotches.rowAt(y / baseHeight, blotchRow);
    let at = y * baseWidth * 3;
    for (let x = 0; x < baseWidth; x++) {
      const sx = x * sceneStep;
      const sc = sx | 0;
      const st = smooth(sx - sc);
      const bx = x * blotchStep;
      const bc = bx | 0;
      const bt = smooth(bx - bc);
      for (let c = 0; c < 3; c++) {
        const s0 = sceneRow[sc * 3 + c]!;
        const b0 = blotchRow[bc * 3 + c]!;
        base[at++] = clampByte(s0 + (sceneRow[(sc + 1) * 3 + c]! - s0) * st + b0 + (blotchRow[(bc + 1) * 3 + c]! - b0) * bt);
      }
    }
  }

  for (let count = int(random, 5, 16); count > 0; count--) {
    drawShape(base, baseWidth, baseHeight, random);
  }

  const baseImage = { pixels: base, width: baseWidth, height: baseHeight };
  const offsets = [int(random, 0, TILE - 1), int(random, 0, TILE - 1), int(random, 0, TILE - 1), int(random, 0, TILE - 1)] as const;
  // The curve is only approximate: a photo that lands outside the range is redone with the
  // detail scaled by how far off it was (rarely needed; at most a few times).
  for (let attempt = 0; ; attempt++) {
    const jpeg = await encode(baseImage, width, height, texture, offsets);
    const size = jpeg.length;
    if (options.width !== undefined || attempt === 4 || (size >= MIN_BYTES && size <= MAX_BYTES)) {
      return { jpeg, width, height };
    }
    const wanted = size < MIN_BYTES ? MIN_BYTES * 1.2 : MAX_BYTES * 0.9;
    texture = textureFor(((wanted * 8) / pixelCount) * (targetBppOf(texture) / ((size * 8) / pixelCount)));
  }
}

/** Input sizes the seeder aims for: what phones upload once the client compressor is done. */
export const MIN_BYTES = 500_000;
/** The server refuses uploads above POST_IMAGE_MAX_BYTES (3,000,000 bytes), so stay under it. */
export const MAX_BYTES = 2_950_000;
const MIN_BPP = 0.9;
const MAX_BPP = 3.4;

/**
 * Measured bits per pixel of the output at quality 90 by texture amplitude (grain is half of
 * it), for these scenes: about the same for every size and shape.
 */
const CURVE: ReadonlyArray<readonly [texture: number, bpp: number]> = [
  [0, 0.35],
  [8, 1.5],
  [16, 2.4],
  [24, 3.05],
  [40, 4.2],
];

function textureFor(bpp: number): number {
  for (let index = 1; index < CURVE.length; index++) {
    const [t0, b0] = CURVE[index - 1]!;
    const [t1, b1] = CURVE[index]!;
    if (bpp <= b1 || index === CURVE.length - 1) return Math.max(0, t0 + ((bpp - b0) * (t1 - t0)) / (b1 - b0));
  }
  return 0;
}

function targetBppOf(texture: number): number {
  for (let index = 1; index < CURVE.length; index++) {
    const [t0, b0] = CURVE[index - 1]!;
    const [t1, b1] = CURVE[index]!;
    if (texture <= t1 || index === CURVE.length - 1) return b0 + ((texture - t0) * (b1 - b0)) / (t1 - t0);
  }
  return 0;
}

/**
 * Scales the base up to full size (bilinear, in libvips: softens the objects' edges a little,
 * like a real lens, and runs off the main thread), adds texture and grain in one JavaScript
 * pass, and encodes at quality 90. (Doing the upscale in JavaScript as well costs the same CPU
 * but serialises it on the main thread: measured ~1.3× slower with two photos at a time.)
 */
async function encode(
  base: { pixels: Buffer; width: number; height: number },
  width: number,
  height: number,
  texture: number,
  [textureX, textureY, grainX, grainY]: readonly [number, number, number, number],
): Promise<Buffer> {
  const pixels = await sharp(base.pixels, { raw: { width: base.width, height: base.height, channels: 3 } })
    .resize(width, height, { kernel: 'linear', fit: 'fill' })
    .raw()
    .toBuffer();
  const out = new Uint8ClampedArray(pixels.buffer, pixels.byteOffset, pixels.length);
  const noise = noiseTiles();
  const grain = texture / 2;
  const mask = TILE - 1;
  for (let y = 0; y < height; y++) {
    const textureRow = ((y + textureY) & mask) * TILE;
    const grainRow = ((y + grainY) & mask) * TILE;
    let at = y * width * 3;
    for (let x = 0; x < width; x++) {
      const delta = noise.texture[textureRow + ((x + textureX) & mask)]! * texture + noise.grain[grainRow + ((x + grainX) & mask)]! * grain;
      out[at] = out[at]! + delta;
      out[at + 1] = out[at + 1]! + delta;
      out[at + 2] = out[at + 2]! + delta;
      at += 3;
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** An "object": a shaded rectangle or ellipse, partly transparent. */
function drawShape(pixels: Buffer, width: number, height: number, random: Random): void {
  const size = (0.05 + random() * 0.3) * Math.min(width, height);
  const x0 = random() * width - size / 2;
  const y0 = random() * height - size / 2;
  const x1 = x0 + size * (0.4 + random() * 1.8);
  const y1 = y0 + size;
  const circle = random() < 0.4;
  const color = randomColor(random);
  const alpha = 0.55 + random() * 0.45;
  const cx = (x0 + x1) / 2;
  const cy = (y0 + y1) / 2;
  const rx = (x1 - x0) / 2;
  const ry = (y1 - y0) / 2;
  for (let y = Math.max(0, Math.floor(y0)); y < Math.min(height, Math.ceil(y1)); y++) {
    // Light from above: objects get darker towards their bottom edge.
    const shade = 1.1 - 0.35 * ((y - y0) / (y1 - y0));
    const dy = (y - cy) / ry;
    for (let x = Math.max(0, Math.floor(x0)); x < Math.min(width, Math.ceil(x1)); x++) {
      if (circle) {
        const dx = (x - cx) / rx;
        if (dx * dx + dy * dy > 1) continue;
      }
      let at = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) {
        const under = pixels[at]!;
        pixels[at++] = clampByte(under + (color[c]! * shade - under) * alpha);
      }
    }
  }
}

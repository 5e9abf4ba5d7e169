import sharp from 'sharp';
import { processImage } from '../src/server/images/image-pipeline.ts';
const n = 3065;
const bytes = await sharp({ create: { width: n, height: n, channels: 4, background: { r: 60, g: 170, b: 100, alpha: 0.5 } } })
  .avif({ bitdepth: 12, chromaSubsampling: '4:4:4', effort: 0 }).toBuffer();
console.log('bytes', bytes.length, await sharp(bytes).metadata().then(m => ({...m, exif: undefined, icc: undefined})));
for (let i = 0; i < 2; i++) {
  const t = performance.now();
  try { await processImage(bytes); console.log('ok', performance.now() - t); } catch (e) { console.log('err', (e as Error).message, performance.now() - t); }
}
const t = performance.now();
await sharp(bytes).raw().toBuffer();
console.log('plain decode', performance.now() - t);

import Compressor from 'compressorjs';

export interface CompressOptions {
  quality: number;
  /** PNG and WebP above this many bytes are converted to JPEG. */
  convertSize: number;
}

/** Compresses in the browser exactly as the spec says (compressorjs), before anything is sent. */
export function compressImage(file: File, { quality, convertSize }: CompressOptions): Promise<Blob> {
  return new Promise((resolve, reject) => {
    new Compressor(file, {
      quality,
      convertSize,
      convertTypes: ['image/png', 'image/webp'],
      success: resolve,
      error: reject,
    });
  });
}

/** The compressed file's name keeps the original's, with the extension of its new type. */
export function compressedName(original: string, blob: Blob): string {
  const extension = blob.type.split('/')[1]?.replace('jpeg', 'jpg') ?? 'jpg';
  return `${original.replace(/\.[^.]*$/, '') || 'photo'}.${extension}`;
}

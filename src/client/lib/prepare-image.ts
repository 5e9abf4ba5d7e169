import type { ErrorCode } from '../../shared/errors';
import {
  ICON_CONVERT_SIZE,
  ICON_MAX_BYTES,
  ICON_QUALITY,
  POST_IMAGE_CONVERT_SIZE,
  POST_IMAGE_MAX_BYTES,
  POST_IMAGE_QUALITY,
} from '../../shared/limits';
import { isImageType } from '../../shared/validation/post';
import { compressedName, compressImage } from './compress-image';
import { Rejected } from './rejected';

/** How one kind of image is compressed and checked, and the spec's code for each refusal. */
export interface ImageRules {
  quality: number;
  convertSize: number;
  maxBytes: number;
  refusals: { filetype: ErrorCode; processing: ErrorCode; tooLarge: ErrorCode };
}

/** Spec "Post creation": quality 0.6, PNG/WebP to JPEG above 3,000,000 bytes, at most 3,000,000 bytes. */
export const POST_PHOTO: ImageRules = {
  quality: POST_IMAGE_QUALITY,
  convertSize: POST_IMAGE_CONVERT_SIZE,
  maxBytes: POST_IMAGE_MAX_BYTES,
  refusals: { filetype: 'INVALID_FILETYPE', processing: 'IMAGE_PROCESSING_FAILED', tooLarge: 'IMAGE_TOO_LARGE' },
};

/** Spec "Profile icon": quality 0.4, PNG/WebP to JPEG above 1,000,000 bytes, at most 500,000 bytes. */
export const PROFILE_ICON: ImageRules = {
  quality: ICON_QUALITY,
  convertSize: ICON_CONVERT_SIZE,
  maxBytes: ICON_MAX_BYTES,
  refusals: { filetype: 'ICON_INVALID_FILETYPE', processing: 'ICON_PROCESSING_FAILED', tooLarge: 'ICON_TOO_LARGE' },
};

/** A compressed image ready to send, named for its new type. */
export interface PreparedImage {
  blob: Blob;
  name: string;
}

/** The spec's first check of a chosen file; throws Rejected. Apart, because a post checks its text next. */
export function checkImageType(file: File, rules: ImageRules): void {
  if (!isImageType(file.type)) throw new Rejected(rules.refusals.filetype);
}

/** Compresses as the spec says, then checks the compressed size; throws Rejected. */
export async function compressWithinLimit(file: File, rules: ImageRules): Promise<PreparedImage> {
  let blob: Blob;
  try {
    blob = await compressImage(file, { quality: rules.quality, convertSize: rules.convertSize });
  } catch {
    throw new Rejected(rules.refusals.processing);
  }
  if (blob.size > rules.maxBytes) throw new Rejected(rules.refusals.tooLarge);
  return { blob, name: compressedName(file.name, blob) };
}

/** Every check of a chosen image, in the spec's order, and its compression. */
export async function prepareImage(file: File, rules: ImageRules): Promise<PreparedImage> {
  checkImageType(file, rules);
  return compressWithinLimit(file, rules);
}

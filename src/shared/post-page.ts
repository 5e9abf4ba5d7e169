import type { ImageSet } from './api/posts.js';

/**
 * A post's page and its photo, as both sides need them: the client renders the page, and the
 * server sends the page with the post and a preload of its photo (issue 28), which only helps
 * when it asks for exactly the source the page's <img> will choose.
 */

/** The id in /post/:id as the page's route reads it; undefined for any other path (or a malformed one). */
export function postIdOfPage(pathname: string): string | undefined {
  const match = /^\/post\/([^/]+)\/*$/i.exec(pathname);
  try {
    return match ? decodeURIComponent(match[1]!) : undefined;
  } catch {
    return undefined;
  }
}

/** The photo is as wide as a phone's screen; beside the details on a desktop, 55 % of it. */
export const POST_IMAGE_SIZES = '(min-width: 1024px) 55vw, 100vw';

/** Every stored size of the photo, the full one last. */
export function postImageSrcSet(image: ImageSet): string {
  return [...image.variants, { src: image.full, width: image.width }].map((source) => `${source.src} ${source.width}w`).join(', ');
}

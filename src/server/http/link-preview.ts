import type { FastifyRequest } from 'fastify';
import { API } from '../../shared/api/paths.js';
import type { BoardResponse } from '../../shared/api/boards.js';
import type { ImageSet, PostResponse } from '../../shared/api/posts.js';
import type { ProfileResponse } from '../../shared/api/users.js';
import { postIdOfPage } from '../../shared/post-page.js';
import { askSelf } from './ask-self.js';
import { escapeHtml } from './escape-html.js';

/** What a chat app's card shows of a page: Open Graph and Twitter card fields. */
interface Preview {
  type: 'website' | 'article' | 'profile';
  title: string;
  description: string;
  image: { url: string; width?: number; height?: number; alt: string } | undefined;
  /** The page's own address; none for the site's generic card. */
  url: string | undefined;
}

/** The grid's 800 px variant (or the widest there is), with its height at that width. */
function cardImage(image: ImageSet, origin: string, alt: string): Preview['image'] {
  const variant = image.variants.at(-1);
  if (!variant) return undefined;
  return { url: origin + variant.src, width: variant.width, height: Math.round((image.height * variant.width) / image.width), alt };
}

/** /@{username} and /@{username}/boards/{slug}: the username and slug, decoded. */
function profileOrBoard(pathname: string): { username: string; slug?: string } | undefined {
  const match = /^\/@([^/]+)(?:\/boards\/([^/]+))?\/?$/.exec(pathname);
  if (!match) return undefined;
  try {
    return { username: decodeURIComponent(match[1]!), ...(match[2] !== undefined && { slug: decodeURIComponent(match[2]) }) };
  } catch {
    return undefined;
  }
}

/**
 * Issue 31: the card a link pasted into a group chat shows. A chat app's crawler runs no script,
 * so the server writes the tags into the page: a post (its description and 800 px photo), a
 * profile (its bio and icon), a public board (its description and cover). Only what anyone may
 * see signed out, asked of this app's own API with no cookie (the one visibility rule: a
 * suspended author, a secret board, a removed post answer 404 there); anything else, every
 * other page, and every request with a cookie get the site's generic card.
 */
export async function linkPreview(request: FastifyRequest, appName: string, publicUrl: string | undefined): Promise<string> {
  // PUBLIC_URL is an origin already (config/settings.ts).
  const origin = publicUrl ?? `${request.protocol}://${request.host}`;
  const pathname = request.url.split('?')[0]!;
  // A crawler carries no cookie; a browser with one runs the app and reads no card, so a
  // signed-in page view does not ask the API twice for the same post.
  const specific = request.headers.cookie === undefined ? await specificPreview(request, pathname, appName, origin) : undefined;
  const preview = specific ?? genericPreview(appName, origin);
  return tagsOf(preview, appName);
}

function genericPreview(appName: string, origin: string): Preview {
  return {
    type: 'website',
    title: appName,
    description: `${appName}: a place to share your #studentliving.`,
    image: { url: `${origin}/icons/icon-512.png`, width: 512, height: 512, alt: appName },
    url: undefined,
  };
}

async function specificPreview(request: FastifyRequest, pathname: string, appName: string, origin: string): Promise<Preview | undefined> {
  const ask = async <T>(url: string): Promise<T | undefined> => {
    const answer = await askSelf(request, url);
    return answer.statusCode === 200 ? answer.json<T>() : undefined;
  };
  const url = origin + pathname;
  const postId = postIdOfPage(pathname);
  if (postId !== undefined) {
    const found = await ask<PostResponse>(API.post(postId));
    if (!found) return undefined;
    const { post } = found;
    const description = post.description || `A post by ${post.author.username}`;
    return {
      type: 'article',
      title: `${post.author.username} on ${appName}`,
      description,
      image: cardImage(post.image, origin, description),
      url,
    };
  }
  const place = profileOrBoard(pathname);
  if (!place) return undefined;
  if (place.slug === undefined) {
    const found = await ask<ProfileResponse>(API.user(place.username));
    if (!found) return undefined;
    const { user } = found;
    return {
      type: 'profile',
      title: `${user.username} on ${appName}`,
      description: user.bio || `${user.username} shares their #studentliving on ${appName}.`,
      image: user.icon ? { url: origin + user.icon, alt: user.username } : undefined,
      url,
    };
  }
  const found = await ask<BoardResponse>(API.userBoard(place.username, place.slug));
  if (!found || found.board.secret) return undefined;
  const { board } = found;
  return {
    type: 'website',
    title: `${board.name} by ${board.owner.username}`,
    description: board.description || `A board of ${board.count} posts on ${appName}.`,
    image: board.cover ? cardImage(board.cover, origin, board.name) : undefined,
    url,
  };
}

function tagsOf(preview: Preview, appName: string): string {
  const tags: Array<[attribute: 'property' | 'name', key: string, value: string | number | undefined]> = [
    ['property', 'og:site_name', appName],
    ['property', 'og:type', preview.type],
    ['property', 'og:title', preview.title],
    ['property', 'og:description', preview.description],
    ['property', 'og:url', preview.url],
    ['property', 'og:image', preview.image?.url],
    ['property', 'og:image:width', preview.image?.width],
    ['property', 'og:image:height', preview.image?.height],
    ['property', 'og:image:alt', preview.image?.alt],
    ['name', 'twitter:card', preview.image?.width !== undefined && preview.image.width > 512 ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', preview.title],
    ['name', 'twitter:description', preview.description],
    ['name', 'twitter:image', preview.image?.url],
  ];
  return tags
    .filter(([, , value]) => value !== undefined)
    .map(([attribute, key, value]) => `<meta ${attribute}="${key}" content="${escapeHtml(String(value))}">`)
    .join('');
}

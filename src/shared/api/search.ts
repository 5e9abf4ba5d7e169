import { z } from 'zod';
import { ErrorBody, text } from './common.js';
import { PostCard } from './posts.js';
import { defineRoute, PUBLIC } from './route.js';

/** The length rule (1 to SEARCH_QUERY_MAX_LENGTH) is checked by the service, with its own message. */
export const SearchQuery = z.strictObject({ q: text().default('') });

export const SearchUser = z.object({ uid: z.string(), username: z.string(), icon: z.string().nullable() }).meta({ id: 'SearchUser' });
export type SearchUser = z.infer<typeof SearchUser>;

export const UserSearchResponse = z.object({ users: z.array(SearchUser) });
export type UserSearchResponse = z.infer<typeof UserSearchResponse>;

export const PostSearchResponse = z.object({ posts: z.array(PostCard) });
export type PostSearchResponse = z.infer<typeof PostSearchResponse>;

/** Two endpoints, so the page can show people even if the post search fails, and vice versa. */
export const searchApi = {
  searchUsers: defineRoute({
    method: 'GET',
    path: '/api/search/users',
    access: PUBLIC,
    tags: ['search'],
    summary: 'People whose username starts with q (up to 10, never you)',
    query: SearchQuery,
    responses: { 200: UserSearchResponse, 400: ErrorBody, 429: ErrorBody, 503: ErrorBody },
  }),
  searchPosts: defineRoute({
    method: 'GET',
    path: '/api/search/posts',
    access: PUBLIC,
    tags: ['search'],
    summary: 'Posts matching any word of q (up to 100, best match first)',
    query: SearchQuery,
    responses: { 200: PostSearchResponse, 400: ErrorBody, 429: ErrorBody, 503: ErrorBody },
  }),
} as const;

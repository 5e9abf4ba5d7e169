import { z } from 'zod';
import { text } from './common.js';
import { PostCard } from './posts.js';

/** The length rule (1 to SEARCH_QUERY_MAX_LENGTH) is checked by the service, with its own message. */
export const SearchQuery = z.strictObject({ q: text().default('') });

export const SearchUser = z.object({ uid: z.string(), username: z.string(), icon: z.string().nullable() }).meta({ id: 'SearchUser' });
export type SearchUser = z.infer<typeof SearchUser>;

export const UserSearchResponse = z.object({ users: z.array(SearchUser) });
export type UserSearchResponse = z.infer<typeof UserSearchResponse>;

export const PostSearchResponse = z.object({ posts: z.array(PostCard) });
export type PostSearchResponse = z.infer<typeof PostSearchResponse>;

import { describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import { pathOf } from '../../src/shared/api/route.js';
import { ROUTES } from '../../src/shared/api/routes.js';
import { serializedArray, serializedJson, serializedObject } from '../../src/shared/api/serialized-json.js';

describe('pathOf', () => {
  it('fills each :param percent-encoded, and appends only the query values that are set', () => {
    expect(pathOf(ROUTES.savePost, { id: 'a/b', postId: 'c d' })).toBe('/api/boards/a%2Fb/posts/c%20d');
    expect(pathOf(ROUTES.userBoard, { username: '@ann', slug: 'x?y#z' })).toBe('/api/users/%40ann/boards/x%3Fy%23z');
    expect(pathOf(ROUTES.searchUsers, {}, { q: 'a&b=c' })).toBe('/api/search/users?q=a%26b%3Dc');
    expect(pathOf(ROUTES.saveTargets, {}, { post: undefined })).toBe('/api/me/boards');
    expect(pathOf(ROUTES.me)).toBe('/api/me');
  });

  it('refuses a missing parameter rather than sending "undefined"', () => {
    expect(() => pathOf(ROUTES.post, {} as { id: string })).toThrow(/needs the parameter id/);
  });

  it('API is derived from the definitions: the same URLs as before', () => {
    expect(API.session('s1')).toBe('/api/me/sessions/s1');
    expect(API.boardMember('b', 'u')).toBe('/api/boards/b/members/u');
    expect(API.saveTargets('p 1')).toBe('/api/me/boards?post=p%201');
    expect(API.searchPosts('x y')).toBe('/api/search/posts?q=x%20y');
    expect(API.moderationRole('@m')).toBe('/api/moderation/people/%40m/role');
  });
});

describe('SerializedJson', () => {
  it('joins serialized parts into the JSON JSON.stringify would make of the whole', () => {
    const cards = [
      { id: 'a', n: 1 },
      { id: 'b"', n: 2 },
    ];
    const page = { posts: cards, nextCursor: null };
    const joined = serializedObject<typeof page>({ posts: serializedArray(cards.map(serializedJson)), nextCursor: serializedJson(null) });
    expect(joined).toBe(JSON.stringify(page));
    expect(serializedArray([])).toBe('[]');
  });
});

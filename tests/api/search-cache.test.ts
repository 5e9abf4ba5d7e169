import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { PostSearchResponse } from '../../src/shared/api/search.js';
import { searchGrams, searchText } from '../../src/shared/keywords.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { insertPosts, query } from '../helpers/people.js';
import { createPost } from '../helpers/posts.js';
import { createTestApp, TestClock, type TestApp } from '../helpers/test-app.js';

/**
 * Post search answers are held for a moment (SEARCH_CACHE_MS). The process that creates or
 * deletes a post forgets them at once; a change made elsewhere (another process, here: a row
 * written behind the app's back) shows within the time to live.
 */
const TTL = 400;
/** The cache's time: it stands still until a test moves it on. */
const clock = new TestClock();
let t: TestApp;

async function search(q: string): Promise<string[]> {
  const response = await t.app.inject({ method: 'GET', url: API.searchPosts(q) });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
  return response.json<PostSearchResponse>().posts.map((post) => post.id);
}

/** Gives a post the search data of a description, behind the app's back. */
const describeAs = (app: TestApp, id: string, description: string) =>
  query(app.database, 'UPDATE posts SET search_grams = $1, search_text = $2 WHERE id = $3', [
    searchGrams(description),
    searchText(description),
    id,
  ]);

describe('post search cache', () => {
  let author: Awaited<ReturnType<typeof signUp>>;

  beforeAll(async () => {
    t = await createTestApp({ cacheTtlMs: TTL }, { clock: clock.now });
    author = await signUp(t.app);
  });
  afterAll(() => t.close());

  it("shows a post the moment it is created, and drops it the moment it's deleted", async () => {
    expect(await search('quokka')).toEqual([]);
    const created = await createPost(t.app, author.cookie, {
      bytes: await jpeg(64, 48),
      type: 'image/jpeg',
      description: 'A #quokka in the quad',
    });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json<{ post: { id: string } }>().post.id;
    expect(await search('quokka')).toEqual([id]);
    const deleted = await t.app.inject({ method: 'DELETE', url: API.post(id), headers: { cookie: author.cookie } });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expect(await search('quokka')).toEqual([]);
  });

  it('holds an answer for at most its time to live when the change happened elsewhere', async () => {
    expect(await search('post')).toEqual([]);
    await insertPosts(t.database, [{ id: 'elsewhere1', userId: author.uid, at: new Date().toISOString() }]);
    await describeAs(t, 'elsewhere1', 'post');
    // Still the remembered answer...
    expect(await search('post')).toEqual([]);
    clock.advance(TTL);
    // ...then the database's.
    expect(await search('post')).toEqual(['elsewhere1']);
  });

  it('shares the entry between queries that clean to the same words', async () => {
    await insertPosts(t.database, [{ id: 'elsewhere2', userId: author.uid, at: new Date().toISOString() }]);
    await describeAs(t, 'elsewhere2', 'wombat');
    clock.advance(TTL);
    expect(await search('wombat')).toEqual(['elsewhere2']);
    await query(t.database, `DELETE FROM posts WHERE id = 'elsewhere2'`);
    // "Wombat!" cleans to "wombat": the remembered answer, not a new search.
    expect(await search('Wombat!')).toEqual(['elsewhere2']);
  });
});

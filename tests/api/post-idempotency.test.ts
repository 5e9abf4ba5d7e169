import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API } from '../../src/shared/api/paths.js';
import type { PostDetail } from '../../src/shared/api/posts.js';
import { POST_IDEMPOTENCY_KEY_MAX_LENGTH } from '../../src/shared/limits.js';
import { signUp } from '../helpers/accounts.js';
import { jpeg } from '../helpers/images.js';
import { expectError, mediaFiles, query } from '../helpers/people.js';
import { multipart, postForm, type FormEntries } from '../helpers/posts.js';
import type { ServerProcess } from '../helpers/server-process.js';
import { noPostgres } from '../helpers/services.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';
import { callServer, registerOn, startTwoServers, type TwoServers } from '../helpers/two-servers.js';

/**
 * Issue 26 point 17: a double-submitted upload form made two posts. The form sends a key
 * (`idempotencyKey`, a multipart field); the same key from the same account within ten minutes
 * answers with the post it first made: the same 201 and body, marked Idempotent-Replayed,
 * and nothing new written (no row, no file). Held in the database, so it holds across processes
 * and when two submissions race.
 */
let t: TestApp;
let photo: Buffer;
beforeAll(async () => {
  t = await createTestApp();
  photo = await jpeg(64, 48);
});
afterAll(() => t?.close());

type Account = Awaited<ReturnType<typeof signUp>>;
const form = (key: string | undefined, description = 'desk lamp #dorm'): FormEntries => [
  ...(key === undefined ? [] : ([['idempotencyKey', key]] as FormEntries)),
  ['photo', { bytes: photo }],
  ['description', description],
];
const submit = (who: Account, key: string | undefined, description?: string) => postForm(t.app, who.cookie, form(key, description));
const postOf = (response: { json: <T>() => T }) => response.json<{ post: PostDetail }>().post;
const postsBy = async (who: Account) =>
  (await query<{ id: string }>(t.database, 'SELECT id FROM posts WHERE user_id = $1 ORDER BY created_at', [who.uid])).map((row) => row.id);
let serial = 0;
const newKey = () => `k${process.pid}-${++serial}-${Math.random().toString(36).slice(2)}`;

describe('POST /api/posts with an idempotency key', () => {
  it('two identical submissions at once: one post, and both answers name it', async () => {
    const user = await signUp(t.app);
    const files = mediaFiles(t).length;
    const key = newKey();
    const answers = await Promise.all([submit(user, key), submit(user, key)]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(201);
    const [first, second] = answers.map(postOf);
    expect(second).toEqual(first);
    expect(await postsBy(user)).toEqual([first!.id]);
    // The other's work is undone: the files of one post only (three sizes).
    expect(mediaFiles(t).length - files).toBe(3);
    expect(answers.filter((answer) => answer.headers['idempotent-replayed'] === 'true')).toHaveLength(1);
  });

  it('a submission sent again: the same 201 and body, marked replayed, nothing written', async () => {
    const user = await signUp(t.app);
    const key = newKey();
    const first = await submit(user, key);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const files = mediaFiles(t).length;
    // Even with other fields (a form edited after a lost answer): the key names the first post.
    for (const again of [await submit(user, key), await submit(user, key, 'edited after all')]) {
      expect(again.statusCode, again.body).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(postOf(again)).toEqual(postOf(first));
    }
    expect(await postsBy(user)).toEqual([postOf(first).id]);
    expect(mediaFiles(t)).toHaveLength(files);
  });

  it("another account's same key is its own: its own post, never the other's", async () => {
    const [alice, bob] = await Promise.all([signUp(t.app), signUp(t.app)]);
    const key = newKey();
    const [fromAlice, fromBob] = await Promise.all([submit(alice, key), submit(bob, key)]);
    expect(fromAlice.statusCode, fromAlice.body).toBe(201);
    expect(fromBob.statusCode, fromBob.body).toBe(201);
    expect(postOf(fromBob).id).not.toBe(postOf(fromAlice).id);
    expect(postOf(fromBob).author.uid).toBe(bob.uid);
    expect(await postsBy(alice)).toEqual([postOf(fromAlice).id]);
    expect(await postsBy(bob)).toEqual([postOf(fromBob).id]);
  });

  it('after ten minutes the same key makes a new post (and then answers with that one)', async () => {
    const user = await signUp(t.app);
    const key = newKey();
    const first = postOf(await submit(user, key));
    // Ten minutes and a second pass, in the database's own time.
    await query(t.database, `UPDATE post_idempotency SET created_at = created_at - interval '10 minutes 1 second' WHERE user_id = $1`, [
      user.uid,
    ]);
    const later = await submit(user, key);
    expect(later.statusCode, later.body).toBe(201);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect(postOf(later).id).not.toBe(first.id);
    const again = await submit(user, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(postOf(again).id).toBe(postOf(later).id);
    expect(await postsBy(user)).toEqual([first.id, postOf(later).id]);
    // Expired keys are swept after a post: only the live one is kept.
    expect(await query(t.database, 'SELECT post_id FROM post_idempotency WHERE user_id = $1', [user.uid])).toEqual([
      { post_id: postOf(later).id },
    ]);
  });

  it('just inside ten minutes it is still the first post', async () => {
    const user = await signUp(t.app);
    const key = newKey();
    const first = postOf(await submit(user, key));
    await query(t.database, `UPDATE post_idempotency SET created_at = created_at - interval '9 minutes 50 seconds' WHERE user_id = $1`, [
      user.uid,
    ]);
    expect(postOf(await submit(user, key)).id).toBe(first.id);
    expect(await postsBy(user)).toEqual([first.id]);
  });

  it('a deleted post frees its key: sent again, it is a new post', async () => {
    const user = await signUp(t.app);
    const key = newKey();
    const first = postOf(await submit(user, key));
    const deleted = await t.app.inject({ method: 'DELETE', url: API.post(first.id), headers: { cookie: user.cookie } });
    expect(deleted.statusCode).toBe(204);
    const again = await submit(user, key);
    expect(again.statusCode, again.body).toBe(201);
    expect(postOf(again).id).not.toBe(first.id);
  });

  it('without a key, every submission is a post (as before)', async () => {
    const user = await signUp(t.app);
    const answers = [await submit(user, undefined), await submit(user, undefined)];
    expect(new Set(answers.map((answer) => postOf(answer).id)).size).toBe(2);
  });

  it.each([
    ['empty', ''],
    ['too long', 'k'.repeat(POST_IDEMPOTENCY_KEY_MAX_LENGTH + 1)],
    ['a space', 'two words'],
    ['a slash', 'a/b'],
    ['a dot', 'a.b'],
    ['not ASCII', 'ключ'],
    ['a line break', 'abc\ndef'],
    ['a percent', '100%'],
  ])('a bad key (%s) is a clear 400 IDEMPOTENCY_KEY_INVALID, nothing written', async (_, key) => {
    const user = await signUp(t.app);
    const files = mediaFiles(t).length;
    expectError(await submit(user, key), 400, 'IDEMPOTENCY_KEY_INVALID');
    expect(await postsBy(user)).toEqual([]);
    expect(mediaFiles(t)).toHaveLength(files);
  });

  it('keys of 1 and 64 characters, a UUID and 32 hex digits are good', async () => {
    const user = await signUp(t.app);
    for (const key of [
      'x',
      'K'.repeat(POST_IDEMPOTENCY_KEY_MAX_LENGTH),
      crypto.randomUUID(),
      'a1b2c3d4e5f60718293a4b5c6d7e8f90',
      'A_b-9',
    ]) {
      const response = await submit(user, key);
      expect(response.statusCode, `${key}: ${response.body}`).toBe(201);
    }
    expect(await postsBy(user)).toHaveLength(5);
  });

  it('a key sent twice in one form is a 400', async () => {
    const user = await signUp(t.app);
    const response = await postForm(t.app, user.cookie, [['idempotencyKey', newKey()], ...form(newKey())]);
    expect(response.statusCode, response.body).toBe(400);
    expect(await postsBy(user)).toEqual([]);
  });

  it('signed out, a key changes nothing: 401', async () => {
    const { payload, contentType } = await multipart(form(newKey()));
    const response = await t.app.inject({ method: 'POST', url: API.posts, payload, headers: { 'content-type': contentType } });
    expectError(response, 401, 'USER_DATA_NOT_FOUND');
  });
});

describe.skipIf(noPostgres)('the same key on two processes at once (PostgreSQL)', { timeout: 180_000 }, () => {
  let servers: TwoServers;
  let a: ServerProcess;
  let b: ServerProcess;
  beforeAll(async () => {
    servers = await startTwoServers('idempotency');
    ({ a, b } = servers);
  }, 180_000);
  afterAll(() => servers?.stop(), 60_000);

  const upload = (server: ServerProcess, cookie: string, key: string) => {
    const body = new FormData();
    body.set('idempotencyKey', key);
    body.set('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    body.set('description', 'sent from two tabs');
    return callServer(server, 'POST', API.posts, cookie, body);
  };

  it('each of five keys, sent to both at once: one post each, both answers naming it', async () => {
    const user = await registerOn(a, 'idem');
    for (let round = 0; round < 5; round++) {
      const key = newKey();
      const answers = await Promise.all([upload(a, user.cookie, key), upload(b, user.cookie, key)]);
      const bodies = await Promise.all(answers.map((answer) => answer.json() as Promise<{ post: PostDetail }>));
      expect(answers.map((answer) => answer.status)).toEqual([201, 201]);
      expect(bodies[0]!.post.id).toBe(bodies[1]!.post.id);
    }
    const profile = await callServer(a, 'GET', API.userPosts(user.username));
    expect(((await profile.json()) as { posts: unknown[] }).posts).toHaveLength(5);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Me } from '../../src/shared/api/auth.js';
import { API } from '../../src/shared/api/paths.js';
import type { PostPage } from '../../src/shared/api/posts.js';
import type { Profile } from '../../src/shared/api/users.js';
import { BIO_MAX_LENGTH, ICON_MAX_BYTES, PROFILE_POSTS_PAGE_SIZE } from '../../src/shared/limits.js';
import { expectedMe, signUp } from '../helpers/accounts.js';
import * as fixtures from '../helpers/images.js';
import {
  at,
  diskPath,
  expectClientError,
  expectError,
  follow,
  get,
  insertPosts,
  mediaFiles,
  patchMe,
  query,
  type PostSeed,
} from '../helpers/people.js';
import { multipart, type FormEntries, type MultipartFile } from '../helpers/posts.js';
import { createTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * Profiles (GET /api/users/:username), a user's posts (GET /api/users/:username/posts) and
 * editing your own icon and bio (PATCH /api/me, multipart: `icon` file, `bio` text).
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

type Account = Awaited<ReturnType<typeof signUp>>;

/** Fresh accounts, signed up through the API (in parallel: password hashing dominates). */
const people = (count: number): Promise<Account[]> => Promise.all(Array.from({ length: count }, () => signUp(t.app)));

async function profile(username: string, cookie?: string): Promise<Profile> {
  const response = await get(t.app, API.user(username), cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ user: Profile }>().user;
}

async function me(cookie: string): Promise<Me> {
  const response = await get(t.app, API.me, cookie);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ user: Me }>().user;
}

async function userRow(uid: string) {
  const [row] = await query<{ bio: string; icon_key: string | null }>(t.database, 'SELECT bio, icon_key FROM users WHERE id = $1', [uid]);
  if (!row) throw new Error(`no user ${uid}`);
  return row;
}

const icon = (bytes: Buffer, type = 'image/jpeg', filename = 'me.jpg'): [string, MultipartFile] => ['icon', { bytes, type, filename }];

/** A PATCH that must succeed; returns the Me it answered. */
async function updated(account: Account, entries: FormEntries): Promise<Me> {
  const response = await patchMe(t.app, account.cookie, entries);
  expect(response.statusCode, response.body).toBe(200);
  return response.json<{ user: Me }>().user;
}

const ICON_URL = (uid: string) => new RegExp(`^/media/profiles/${uid}/[0-9a-f]{8}-320\\.webp$`);
const smallIcon = (url: string) => url.replace(/-320\.webp$/, '-96.webp');

/** Both stored files of an icon, as the server wrote them: [96, 320]. */
const iconFiles = (url: string) => [smallIcon(url), url].map((u) => u.slice('/media/'.length));

let postSerial = 0;
const postId = () => `ppost${process.pid % 1000}x${(postSerial += 1).toString().padStart(5, '0')}`;

// ---------------------------------------------------------------- profile

describe('GET /api/users/:username', () => {
  it('answers the profile: uid, username, icon, bio, counts and followedByMe, and never the e-mail', async () => {
    const [alice] = await people(1);
    const response = await get(t.app, API.user(alice!.username));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      user: {
        uid: alice!.uid,
        username: alice!.username,
        icon: null,
        bio: '',
        followers: 0,
        following: 0,
        followedByMe: false,
        blockedByMe: false,
      },
    });
    expect(response.body).not.toContain(alice!.email);
    expect(response.body).not.toMatch(/email|password|hash/i);
    // Not even to the user herself.
    const own = await get(t.app, API.user(alice!.username), alice!.cookie);
    expect(own.body).not.toContain(alice!.email);
    expect(Object.keys(own.json().user).sort()).toEqual([
      'bio',
      'blockedByMe',
      'followedByMe',
      'followers',
      'following',
      'icon',
      'uid',
      'username',
    ]);
  });

  it("'@alice', 'ALICE' and '@Alice' are alice", async () => {
    const [alice] = await people(1);
    const name = alice!.username;
    const capitalised = name[0]!.toUpperCase() + name.slice(1);
    for (const form of [`@${name}`, name.toUpperCase(), `@${capitalised}`]) {
      expect((await profile(form)).uid).toBe(alice!.uid);
    }
    // The '@' also works unescaped in the path, as a browser address bar sends it.
    const raw = await get(t.app, `/api/users/@${name}`);
    expect(raw.statusCode, raw.body).toBe(200);
    expect(raw.json().user.uid).toBe(alice!.uid);
  });

  it("an unknown user is a 404 with the spec's 'User not found!'", async () => {
    const response = await get(t.app, API.user('nobody_here'));
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ code: 'USER_NOT_FOUND', message: 'User not found!' });
    // A valid-length name that is not a username at all is simply not found.
    expectError(await get(t.app, API.user('a'.repeat(64))), 404, 'USER_NOT_FOUND');
    expectError(await get(t.app, API.user('@')), 404, 'USER_NOT_FOUND');
  });

  it('an overlong username (65 characters) is a 400', async () => {
    expectError(await get(t.app, API.user('a'.repeat(65))), 400, 'BAD_REQUEST');
  });

  it('followedByMe is true only for a viewer who follows, false for others and when signed out', async () => {
    const [alice, bob, carol] = await people(3);
    expect(await follow(t.app, alice!.username, bob!.cookie)).toMatchObject({ statusCode: 200 });
    expect(await profile(alice!.username, bob!.cookie)).toMatchObject({ followers: 1, following: 0, followedByMe: true });
    expect(await profile(alice!.username, carol!.cookie)).toMatchObject({ followers: 1, followedByMe: false });
    expect(await profile(alice!.username, alice!.cookie)).toMatchObject({ followers: 1, followedByMe: false });
    expect(await profile(alice!.username)).toMatchObject({ followers: 1, followedByMe: false });
    expect(await profile(alice!.username, 'session=forged')).toMatchObject({ followedByMe: false });
    // The edge is directed: alice does not follow bob.
    expect(await profile(bob!.username, alice!.cookie)).toMatchObject({ followers: 0, following: 1, followedByMe: false });
  });
});

// ---------------------------------------------------------------- a user's posts

describe('GET /api/users/:username/posts', () => {
  const page = async (username: string, cursor?: string): Promise<PostPage> => {
    const url = API.userPosts(username) + (cursor === undefined ? '' : `?cursor=${encodeURIComponent(cursor)}`);
    const response = await get(t.app, url);
    expect(response.statusCode, response.body).toBe(200);
    return response.json<PostPage>();
  };

  it('someone without posts has an empty page', async () => {
    const [alice] = await people(1);
    expect(await page(alice!.username)).toEqual({ posts: [], nextCursor: null });
  });

  it(`only that user's posts, newest first, ${PROFILE_POSTS_PAGE_SIZE} a page, the rest on the next`, async () => {
    expect(PROFILE_POSTS_PAGE_SIZE).toBe(50);
    const [alice, bob] = await people(2);
    const mine: Array<PostSeed & { n: number }> = [];
    const others: PostSeed[] = [];
    for (let i = 0; i < 53; i += 1) {
      // Groups of 4 share a time, so the boundary (row 50) falls inside a tie: the id decides.
      mine.push({ id: postId(), userId: alice!.uid, at: at(Math.floor(i / 4)), n: i });
      // Bob posts in between, and some of his share alice's times exactly.
      if (i % 5 === 0) others.push({ id: postId(), userId: bob!.uid, at: at(Math.floor(i / 4)) });
    }
    await insertPosts(t.database, [...mine, ...others]);

    const expected = [...mine].sort((x, y) => Math.floor(y.n / 4) - Math.floor(x.n / 4) || (x.id < y.id ? 1 : -1)).map((p) => p.id);
    const first = await page(alice!.username);
    expect(first.posts).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await page(alice!.username, first.nextCursor!);
    expect(second.posts).toHaveLength(3);
    expect(second.nextCursor).toBeNull();
    expect([...first.posts, ...second.posts].map((p) => p.id)).toEqual(expected);

    // A card: id, description and the image set (URLs derived from the stored key).
    const card = first.posts[0]!;
    expect(card).toMatchObject({ id: expected[0], description: `post ${expected[0]}`, image: { width: 640, height: 480 } });
    expect(card.image.full).toMatch(new RegExp(`^/media/images/${expected[0]}/v1`));

    // '@' and letter case resolve to the same user; bob sees only his own posts.
    expect(await page(`@${alice!.username.toUpperCase()}`)).toEqual(first);
    const bobs = await page(bob!.username);
    expect(bobs.posts.map((p) => p.id).sort()).toEqual(others.map((p) => p.id).sort());
    expect(bobs.nextCursor).toBeNull();
  });

  it('exactly one page of posts has no next cursor', async () => {
    const [alice] = await people(1);
    await insertPosts(
      t.database,
      Array.from({ length: 50 }, (_, i) => ({ id: postId(), userId: alice!.uid, at: at(1000 + i) })),
    );
    const first = await page(alice!.username);
    expect(first.posts).toHaveLength(50);
    expect(first.nextCursor).toBeNull();
  });

  it('a cursor that is not one of ours is a 400; an unknown user is a 404', async () => {
    const [alice] = await people(1);
    for (const cursor of ['garbage', Buffer.from('["not a time","x"]').toString('base64url'), 'x'.repeat(201)]) {
      expectError(await get(t.app, `${API.userPosts(alice!.username)}?cursor=${encodeURIComponent(cursor)}`), 400, 'BAD_REQUEST');
    }
    expectError(await get(t.app, `${API.userPosts(alice!.username)}?page=2`), 400, 'BAD_REQUEST');
    expectError(await get(t.app, API.userPosts('nobody_here')), 404, 'USER_NOT_FOUND');
    expectError(await get(t.app, API.userPosts('a'.repeat(65))), 400, 'BAD_REQUEST');
  });
});

// ---------------------------------------------------------------- PATCH /api/me

describe('PATCH /api/me', () => {
  it("signed out: 401 'User data not found' and nothing is saved", async () => {
    const before = mediaFiles(t);
    const response = await patchMe(t.app, undefined, [['bio', 'hello'], icon(await fixtures.jpeg(100, 100))]);
    expectError(response, 401, 'USER_DATA_NOT_FOUND');
    expect(response.json().message).toBe('User data not found');
    expect(mediaFiles(t)).toEqual(before);
    const rows = await query(t.database, "SELECT 1 FROM users WHERE bio = 'hello'");
    expect(rows).toEqual([]);
    expectError(await patchMe(t.app, 'session=forged', [['bio', 'hello']]), 401, 'USER_DATA_NOT_FOUND');
  });

  it('bio only: saved, icon unchanged; the answer, /api/me and the profile all show it', async () => {
    const [alice] = await people(1);
    const first = await updated(alice!, [icon(await fixtures.jpeg(200, 200))]);
    const user = await updated(alice!, [['bio', 'Sharing my #studentliving']]);
    expect(user).toEqual(expectedMe(alice!, { bio: 'Sharing my #studentliving', icon: first.icon }));
    expect(await me(alice!.cookie)).toEqual(user);
    expect(await profile(alice!.username)).toMatchObject({ bio: 'Sharing my #studentliving', icon: first.icon });
    expect(await userRow(alice!.uid)).toMatchObject({ bio: 'Sharing my #studentliving' });
  });

  it('icon only: stored as 320 and 96 px WebP squares under a new URL; bio unchanged', async () => {
    const [alice] = await people(1);
    await updated(alice!, [['bio', 'kept']]);
    const before = await me(alice!.cookie);
    expect(before.icon).toBeNull();

    const user = await updated(alice!, [icon(await fixtures.jpeg(800, 500), 'image/jpeg', 'holiday.jpg')]);
    expect(user).toMatchObject({ uid: alice!.uid, bio: 'kept' });
    expect(user.icon).toMatch(ICON_URL(alice!.uid));
    expect(await me(alice!.cookie)).toEqual(user);
    expect((await profile(alice!.username)).icon).toBe(user.icon);

    const served = await get(t.app, user.icon!);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 320, height: 320 });

    const small = diskPath(t, smallIcon(user.icon!));
    expect(fs.existsSync(small)).toBe(true);
    expect(await sharp(small).metadata()).toMatchObject({ format: 'webp', width: 96, height: 96 });
    expect((await get(t.app, smallIcon(user.icon!))).statusCode).toBe(200);
    // Exactly those two files for this user.
    expect(mediaFiles(t).filter((f) => f.startsWith(`profiles/${alice!.uid}/`))).toEqual(iconFiles(user.icon!).sort());
  });

  it("a new icon gets a new URL and the old icon's files are deleted", async () => {
    const [alice] = await people(1);
    const first = await updated(alice!, [icon(await fixtures.png(300, 300), 'image/png', 'a.png')]);
    const second = await updated(alice!, [icon(await fixtures.jpeg(300, 300), 'image/jpeg', 'b.jpg')]);
    expect(second.icon).toMatch(ICON_URL(alice!.uid));
    expect(second.icon).not.toBe(first.icon);
    for (const file of iconFiles(first.icon!)) expect(fs.existsSync(path.join(t.config.dataDir, 'media', file))).toBe(false);
    expect((await get(t.app, first.icon!)).statusCode).toBe(404);
    expect((await get(t.app, second.icon!)).statusCode).toBe(200);
    expect(mediaFiles(t).filter((f) => f.startsWith(`profiles/${alice!.uid}/`))).toEqual(iconFiles(second.icon!).sort());
  });

  it('simultaneous icon uploads leave exactly one icon on disk: the one the profile shows', async () => {
    const [alice] = await people(1);
    const bytes = await fixtures.jpeg(300, 300);
    const responses = await Promise.all([1, 2, 3].map(() => patchMe(t.app, alice!.cookie, [icon(bytes)])));
    expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const shown = (await me(alice!.cookie)).icon!;
    expect(mediaFiles(t).filter((f) => f.startsWith(`profiles/${alice!.uid}/`))).toEqual(iconFiles(shown).sort());
  });

  it('icon and bio together are saved by one request', async () => {
    const [alice] = await people(1);
    const user = await updated(alice!, [['bio', 'both at once'], icon(await fixtures.webp(400, 300), 'image/webp', 'x.webp')]);
    expect(user.bio).toBe('both at once');
    expect(user.icon).toMatch(ICON_URL(alice!.uid));
    expect(await userRow(alice!.uid)).toEqual({ bio: 'both at once', icon_key: user.icon!.slice('/media/'.length, -'-320.webp'.length) });
    expect(await me(alice!.cookie)).toEqual(user);
  });

  it('an empty or blank bio is not saved: the previous bio stays (spec: saved only when non-empty)', async () => {
    const [alice] = await people(1);
    await updated(alice!, [['bio', 'my first bio']]);
    for (const blank of ['', '   ', '\n\t ']) {
      expect((await updated(alice!, [['bio', blank]])).bio).toBe('my first bio');
    }
    // With an icon, the icon is saved and the bio still kept.
    const withIcon = await updated(alice!, [['bio', ''], icon(await fixtures.jpeg(120, 120))]);
    expect(withIcon).toMatchObject({ bio: 'my first bio', icon: expect.stringMatching(ICON_URL(alice!.uid)) });
    // An empty form changes nothing.
    expect(await updated(alice!, [])).toEqual(withIcon);
    expect(await userRow(alice!.uid)).toMatchObject({ bio: 'my first bio' });
  });

  it(`a bio of ${BIO_MAX_LENGTH} characters is saved; ${BIO_MAX_LENGTH + 1} is a 400 and nothing is saved`, async () => {
    expect(BIO_MAX_LENGTH).toBe(160);
    const [alice] = await people(1);
    const longest = 'b'.repeat(160);
    expect((await updated(alice!, [['bio', longest]])).bio).toBe(longest);
    // Characters, not UTF-16 units: 160 emoji fit too.
    const emoji = '🎓'.repeat(160);
    expect((await updated(alice!, [['bio', emoji]])).bio).toBe(emoji);

    const before = await me(alice!.cookie);
    const files = mediaFiles(t);
    const response = await patchMe(t.app, alice!.cookie, [['bio', 'c'.repeat(161)], icon(await fixtures.jpeg(100, 100))]);
    expectError(response, 400, 'BIO_TOO_LONG');
    expect(response.json().message).toBe('Bio must be at most 160 characters.');
    expect(await me(alice!.cookie)).toEqual(before);
    expect(mediaFiles(t)).toEqual(files);
    // Far past every limit of the form parser: still the same clear answer.
    expectError(await patchMe(t.app, alice!.cookie, [['bio', 'd'.repeat(20_000)]]), 400, 'BIO_TOO_LONG');
    expect(await me(alice!.cookie)).toEqual(before);
  });

  it("an icon declared as text/plain is a 415 'Profile icon is in an invalid filetype'", async () => {
    const [alice] = await people(1);
    const files = mediaFiles(t);
    const response = await patchMe(t.app, alice!.cookie, [
      icon(await fixtures.jpeg(100, 100), 'text/plain', 'me.txt'),
      ['bio', 'not saved'],
    ]);
    expectError(response, 415, 'ICON_INVALID_FILETYPE');
    expect(response.json().message).toBe('Profile icon is in an invalid filetype');
    expect(await userRow(alice!.uid)).toEqual({ bio: '', icon_key: null });
    expect(mediaFiles(t)).toEqual(files);
  });

  it(`an icon of ${ICON_MAX_BYTES} bytes is accepted; one byte more is a 413 'Profile icon is too large!'`, async () => {
    expect(ICON_MAX_BYTES).toBe(500_000);
    const [alice] = await people(1);
    const ok = await updated(alice!, [icon(await fixtures.jpegOfSize(ICON_MAX_BYTES))]);
    expect(ok.icon).toMatch(ICON_URL(alice!.uid));

    const files = mediaFiles(t);
    for (const size of [ICON_MAX_BYTES + 1, 900_000]) {
      const response = await patchMe(t.app, alice!.cookie, [['bio', 'not saved'], icon(await fixtures.jpegOfSize(size))]);
      expectError(response, 413, 'ICON_TOO_LARGE');
      expect(response.json().message).toBe('Profile icon is too large!');
    }
    expect(await me(alice!.cookie)).toEqual(ok);
    expect(mediaFiles(t)).toEqual(files);
  });

  it('files that are not images (SVG, HTML, empty, truncated) are a 415 or 422, never a 500, and nothing is stored', async () => {
    const [alice] = await people(1);
    const files = mediaFiles(t);
    const cases: Array<[string, Buffer]> = [
      ['svg', fixtures.svgWithScript()],
      ['html', fixtures.html()],
      ['empty', fixtures.empty()],
      ['truncated', await fixtures.truncatedJpeg()],
      ['header-truncated', await fixtures.headerTruncatedJpeg()],
      ['fake gif', fixtures.fakeGifHeader()],
    ];
    for (const [name, bytes] of cases) {
      const response = await patchMe(t.app, alice!.cookie, [icon(bytes, 'image/png', `${name}.png`)]);
      expect([415, 422], `${name}: ${response.statusCode} ${response.body}`).toContain(response.statusCode);
      expectError(response, response.statusCode, response.statusCode === 415 ? 'ICON_INVALID_FILETYPE' : 'ICON_PROCESSING_FAILED');
    }
    // The script-carrying formats are refused as "not an image", not as a processing failure.
    expectError(
      await patchMe(t.app, alice!.cookie, [icon(fixtures.svgWithScript(), 'image/svg+xml', 'x.svg')]),
      415,
      'ICON_INVALID_FILETYPE',
    );
    expectError(await patchMe(t.app, alice!.cookie, [icon(fixtures.html(), 'image/png', 'x.png')]), 415, 'ICON_INVALID_FILETYPE');
    // A damaged JPEG is a processing failure with the spec's message.
    const damaged = await patchMe(t.app, alice!.cookie, [icon(await fixtures.truncatedJpeg())]);
    expectError(damaged, 422, 'ICON_PROCESSING_FAILED');
    expect(damaged.json().message).toBe('Image processing failed!');

    expect(await userRow(alice!.uid)).toEqual({ bio: '', icon_key: null });
    expect(mediaFiles(t)).toEqual(files);
  });

  it('the real format is read from the bytes: a JPEG declared as image/png is fine', async () => {
    const [alice] = await people(1);
    const user = await updated(alice!, [icon(await fixtures.jpeg(150, 150), 'image/png', 'really-a-jpeg.png')]);
    expect(user.icon).toMatch(ICON_URL(alice!.uid));
  });

  it('EXIF, GPS, XMP and ICC metadata are stripped from both stored icon files', async () => {
    const [alice] = await people(1);
    const original = await fixtures.jpeg(400, 400, { metadata: true });
    // The fixture really carries what must go.
    const planted = await sharp(original).metadata();
    expect(planted.exif).toBeDefined();
    expect(original.includes(fixtures.SECRET.gps)).toBe(true);

    const user = await updated(alice!, [icon(original)]);
    for (const file of iconFiles(user.icon!)) {
      const bytes = fs.readFileSync(path.join(t.config.dataDir, 'media', file));
      const metadata = await sharp(bytes).metadata();
      expect(metadata.format).toBe('webp');
      expect(metadata.exif).toBeUndefined();
      expect(metadata.xmp).toBeUndefined();
      expect(metadata.icc).toBeUndefined();
      for (const secret of Object.values(fixtures.SECRET)) expect(bytes.includes(secret), `${file} contains ${secret}`).toBe(false);
    }
  });

  it("you can only change your own profile: bob's requests never touch alice", async () => {
    const [alice, bob] = await people(2);
    const aliceBefore = await updated(alice!, [['bio', 'alice bio'], icon(await fixtures.jpeg(100, 100))]);
    const aliceFiles = iconFiles(aliceBefore.icon!);

    // Bob names alice wherever a client might: the query string, and form fields (refused).
    const form = await multipart([['bio', 'bob bio'], icon(await fixtures.jpeg(90, 90))]);
    const viaQuery = await t.app.inject({
      method: 'PATCH',
      url: `${API.me}?uid=${alice!.uid}&username=${alice!.username}`,
      payload: form.payload,
      headers: { 'content-type': form.contentType, cookie: bob!.cookie },
    });
    expect(viaQuery.statusCode, viaQuery.body).toBeLessThan(500);
    for (const field of ['uid', 'username', 'userId']) {
      const value = field === 'username' ? alice!.username : alice!.uid;
      expectClientError(
        await patchMe(t.app, bob!.cookie, [
          [field, value],
          ['bio', 'bob again'],
        ]),
      );
    }

    expect(await me(alice!.cookie)).toEqual(aliceBefore);
    expect(await userRow(alice!.uid)).toMatchObject({ bio: 'alice bio' });
    for (const file of aliceFiles) expect(fs.existsSync(path.join(t.config.dataDir, 'media', file))).toBe(true);
    // Whatever bob's first request did, it did it to bob.
    if (viaQuery.statusCode === 200) {
      expect(viaQuery.json().user).toMatchObject({ uid: bob!.uid, bio: 'bob bio' });
    }
  });

  it('an unknown form field is a 400 and nothing is saved', async () => {
    const [alice] = await people(1);
    const files = mediaFiles(t);
    // Unknown field first, and after a valid one.
    expectError(
      await patchMe(t.app, alice!.cookie, [
        ['website', 'x'],
        ['bio', 'not saved'],
      ]),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await patchMe(t.app, alice!.cookie, [
        ['bio', 'not saved'],
        ['website', 'x'],
      ]),
      400,
      'BAD_REQUEST',
    );
    // A file under another name, and a second icon.
    expectError(
      await patchMe(t.app, alice!.cookie, [
        ['bio', 'not saved'],
        ['photo', { bytes: await fixtures.jpeg(50, 50) }],
      ]),
      400,
      'BAD_REQUEST',
    );
    expectError(
      await patchMe(t.app, alice!.cookie, [icon(await fixtures.jpeg(50, 50)), icon(await fixtures.jpeg(60, 60))]),
      400,
      'BAD_REQUEST',
    );
    // The same text field twice.
    expectError(
      await patchMe(t.app, alice!.cookie, [
        ['bio', 'one'],
        ['bio', 'two'],
      ]),
      400,
      'BAD_REQUEST',
    );
    // Many unknown fields after a valid form.
    const many: FormEntries = [['bio', 'not saved'], icon(await fixtures.jpeg(50, 50))];
    for (let i = 0; i < 20; i += 1) many.push([`field${i}`, 'x']);
    expectError(await patchMe(t.app, alice!.cookie, many), 400, 'BAD_REQUEST');
    expect(await userRow(alice!.uid)).toEqual({ bio: '', icon_key: null });
    expect(mediaFiles(t)).toEqual(files);
  });

  it('a JSON body instead of multipart is a 4xx and nothing is saved', async () => {
    const [alice] = await people(1);
    const json = await t.app.inject({ method: 'PATCH', url: API.me, payload: { bio: 'json bio' }, headers: { cookie: alice!.cookie } });
    expectClientError(json);
    const form = await t.app.inject({
      method: 'PATCH',
      url: API.me,
      payload: 'bio=urlencoded',
      headers: { cookie: alice!.cookie, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectClientError(form);
    const none = await t.app.inject({ method: 'PATCH', url: API.me, headers: { cookie: alice!.cookie } });
    expect(none.statusCode, none.body).toBeLessThan(500);
    expect(await userRow(alice!.uid)).toEqual({ bio: '', icon_key: null });
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../src/server/db/database.js';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS, errorCodeOf, type ErrorCode } from '../../src/shared/errors.js';
import { multipart, type FormEntries } from './posts.js';
import type { TestApp } from './test-app.js';

/**
 * Helpers for the people API tests (profiles, follows, PATCH /api/me). Bulk data goes straight
 * into the database with one statement per table, so tests with hundreds of rows stay fast.
 */

/**
 * An API error: the status and `{ code, message }` with the catalogue's text; a text with a
 * {placeholder} comes filled in ('This account is suspended until December 1, …'), never as is.
 */
export function expectError(response: LightMyRequestResponse, status: number, code: ErrorCode) {
  expect(response.statusCode, response.body).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const { message } = response.json<{ message: string }>();
  expect(response.json()).toMatchObject({ code });
  expect(errorCodeOf(message), message).toBe(code);
  expect(message).not.toMatch(/\{\w+\}/);
}

/** Some 4xx with a well-formed catalogue error: never a 500, never a success. */
export function expectClientError(response: LightMyRequestResponse) {
  expect(response.statusCode, response.body).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, response.body).toBeLessThan(500);
  const body = response.json<{ code: ErrorCode; message: string }>();
  expect(Object.keys(ERRORS)).toContain(body.code);
  expect(body.message).toBe(ERRORS[body.code]);
}

export const get = (app: FastifyInstance, url: string, cookie?: string) =>
  app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

export const follow = (app: FastifyInstance, username: string, cookie?: string) =>
  app.inject({ method: 'PUT', url: API.follow(username), headers: cookie ? { cookie } : {} });

export const unfollow = (app: FastifyInstance, username: string, cookie?: string) =>
  app.inject({ method: 'DELETE', url: API.follow(username), headers: cookie ? { cookie } : {} });

/** PATCH /api/me with a real multipart body (as the Account Settings form sends it). */
export async function patchMe(app: FastifyInstance, cookie: string | undefined, entries: FormEntries) {
  const { payload, contentType } = await multipart(entries);
  return app.inject({
    method: 'PATCH',
    url: API.me,
    payload,
    headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) },
  });
}

/** Plain SQL returning rows, the same on PGlite and PostgreSQL. */
export function query<Row>(database: Database, text: string, params: unknown[] = []): Promise<Row[]> {
  return database.rawTransaction((tx) => tx.query<Row>(text, params));
}

let serial = 0;

/**
 * Inserts `count` users in one statement (no password anyone can use: they never sign in) and
 * returns them in order. Ids are zero-padded so their text order is the same under any collation.
 */
export async function insertUsers(database: Database, count: number, prefix = 'bulk') {
  serial += 1;
  const tag = `${prefix}${process.pid % 1000}x${serial}`;
  const rows = Array.from({ length: count }, (_, i) => {
    const n = String(i).padStart(4, '0');
    return { id: `${tag}id${n}`, username: `${tag}u${n}`.slice(0, 20) };
  });
  if (new Set(rows.map((row) => row.username)).size !== count) throw new Error(`prefix ${prefix} too long for unique usernames`);
  await query(
    database,
    `INSERT INTO users (id, username, email, password_hash)
     SELECT id, username, username || '@example.com', 'not-a-hash' FROM unnest($1::text[], $2::text[]) AS t(id, username)`,
    [rows.map((row) => row.id), rows.map((row) => row.username)],
  );
  return rows;
}

export interface Edge {
  follower: string;
  target: string;
  /** ISO time of the edge; later = newer. */
  at: string;
}

/** Inserts follow edges in one statement. */
export async function insertFollows(database: Database, edges: Edge[]) {
  await query(
    database,
    `INSERT INTO follows (follower_id, target_id, created_at)
     SELECT * FROM unnest($1::text[], $2::text[], $3::timestamptz[])`,
    [edges.map((e) => e.follower), edges.map((e) => e.target), edges.map((e) => e.at)],
  );
}

export interface PostSeed {
  id: string;
  userId: string;
  at: string;
}

/**
 * Inserts post rows in one statement. The profile-posts route never reads the image files, so
 * the image key only has to look like one.
 */
export async function insertPosts(database: Database, seeds: PostSeed[]) {
  await query(
    database,
    `INSERT INTO posts (id, user_id, description, image_key, width, height, created_at)
     SELECT id, user_id, 'post ' || id, 'images/' || id || '/v1', 640, 480, created_at
     FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS t(id, user_id, created_at)`,
    [seeds.map((s) => s.id), seeds.map((s) => s.userId), seeds.map((s) => s.at)],
  );
}

/** Every follow edge touching one of these users, as "follower>target", sorted. */
export async function edgesOf(database: Database, ...uids: string[]): Promise<string[]> {
  const rows = await query<{ follower_id: string; target_id: string }>(
    database,
    'SELECT follower_id, target_id FROM follows WHERE follower_id = ANY($1::text[]) OR target_id = ANY($1::text[])',
    [uids],
  );
  return rows.map((row) => `${row.follower_id}>${row.target_id}`).sort();
}

/** A time `seconds` after a fixed instant, as ISO text. */
export const at = (seconds: number) => new Date(Date.UTC(2024, 0, 1) + seconds * 1000).toISOString();

export const mediaDir = (t: TestApp) => path.join(t.config.dataDir, 'media');

/** Where the file behind a /media/... URL lives on disk. */
export function diskPath(t: TestApp, url: string): string {
  if (!url.startsWith('/media/')) throw new Error(`not a media URL: ${url}`);
  return path.join(mediaDir(t), url.slice('/media/'.length));
}

/** Every file (not folder) under DATA_DIR/media, relative to it, sorted. */
export function mediaFiles(t: TestApp): string[] {
  const root = mediaDir(t);
  if (!fs.existsSync(root)) return [];
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((entry) => fs.statSync(path.join(root, entry)).isFile()).sort();
}

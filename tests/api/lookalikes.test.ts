import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.js';
import { hashPassword } from '../../src/server/auth/password.js';
import { loadConfig } from '../../src/server/config.js';
import { openDatabase, type Database } from '../../src/server/db/database.js';
import { migrate } from '../../src/server/db/migrate.js';
import { MIGRATIONS } from '../../src/server/db/migrations/index.js';
import { API } from '../../src/shared/api/paths.js';
import { ERRORS } from '../../src/shared/errors.js';
import { newAccount, sessionCookie, signUp } from '../helpers/accounts.js';
import { boardRoutes, boardRows, boardSteps } from '../helpers/boards.js';
import { expectError, query } from '../helpers/people.js';
import { TEST_DATABASE_URL } from '../helpers/services.js';
import { createTestApp, emptyPostgres, TEST_ARGON2ID, TEST_RATE_LIMITS, type TestApp } from '../helpers/test-app.js';

/**
 * Issue 26 (13): a name that only looks like a taken one is taken. An address with a Cyrillic а,
 * or a board name with a full-width letter or a zero-width space, made a second 'alice' or a
 * second 'Books' (lookalikes/skeleton.ts has the rule; the unique indexes of migration 14 hold it
 * under concurrency).
 */

// Cyrillic а (U+0430), е (U+0435), о (U+043E); Greek ο (U+03BF); a zero-width space; full-width letters.
const CYRILLIC_A = '\u0430';
const CYRILLIC_E = '\u0435';
const CYRILLIC_O = '\u043E';
const GREEK_O = '\u03BF';
const ZERO_WIDTH = '\u200B';
const fullWidth = (text: string) => text.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0));

let serial = 0;
/** A fresh address, its only letters those of 'alice', 'school' and 'test' (each test spells its look-alikes from them). */
function address(): string {
  serial += 1;
  return `alice.${process.pid}${serial}@school.test`;
}

const register = (app: FastifyInstance, body: { username: string; email: string; password: string }) =>
  app.inject({ method: 'POST', url: API.register, payload: body });

describe('sign-up with an address that looks like a registered one', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("a Cyrillic а or Greek ο, in the name or the domain, is 'Invalid email address.' (the one parser takes ASCII only), and writes nothing", async () => {
    const email = address();
    await signUp(t.app, { ...newAccount('la'), email });
    const [before] = await query<{ n: number }>(t.database, 'SELECT count(*)::int AS n FROM users');
    const lookalikes = [
      email.replace('a', CYRILLIC_A),
      email.replace('e', CYRILLIC_E),
      email.replace('o', GREEK_O),
      email.replace('school', `sch${CYRILLIC_O}${CYRILLIC_O}l`),
      email.replace('test', `t${CYRILLIC_E}st`),
      email.replace('a', CYRILLIC_A).toUpperCase(),
    ];
    for (const lookalike of lookalikes) {
      expect(lookalike, 'a different string').not.toBe(email);
      const response = await register(t.app, { ...newAccount('lb'), email: lookalike });
      expectError(response, 400, 'EMAIL_INVALID');
      expect(response.json().messages).toEqual([ERRORS.EMAIL_INVALID]);
    }
    const [after] = await query<{ n: number }>(t.database, 'SELECT count(*)::int AS n FROM users');
    expect(after!.n).toBe(before!.n);
  });

  it('full-width letters were folded already (NFKC) and still are', async () => {
    const email = address();
    await signUp(t.app, { ...newAccount('la'), email });
    expectError(await register(t.app, { ...newAccount('lb'), email: fullWidth(email) }), 409, 'EMAIL_TAKEN');
  });

  it('addresses that differ in plain ASCII are two people: paul1 and paull, morris and rnorris both sign up', async () => {
    const tag = `${process.pid % 1000}x${(serial += 1)}`;
    for (const local of ['paul1', 'paull', 'morris', 'rnorris', 'bob0', 'bobo']) {
      const response = await register(t.app, { ...newAccount('lc'), email: `${local}.${tag}@example.test` });
      expect(response.statusCode, response.body).toBe(201);
    }
  });
  // Addresses are ASCII now (shared/validation/email.ts), so only rows stored before that can
  // hold a look-alike: 'rows from before migration 14' below covers them.
});

describe("a board name that looks like one of the owner's boards", () => {
  let t: TestApp;
  let routes: ReturnType<typeof boardRoutes>;
  let steps: ReturnType<typeof boardSteps>;
  beforeAll(async () => {
    t = await createTestApp();
    routes = boardRoutes(t.app);
    steps = boardSteps(t.app);
  });
  afterAll(() => t.close());

  const lookalikesOfBooks = [
    ['full-width', fullWidth('Books')],
    ['full-width, one letter', `B${fullWidth('o')}oks`],
    ['zero-width space inside', `Bo${ZERO_WIDTH}oks`],
    ['zero-width joiner and word joiner', `B\u200Dooks\u2060`],
    ['Cyrillic о', `B${CYRILLIC_O}${CYRILLIC_O}ks`],
    ['Greek ο', `Bo${GREEK_O}ks`],
    ['Cyrillic capital В', `\u0412ooks`],
  ] as const;

  it.each(lookalikesOfBooks)('is refused on creation: 409 BOARD_NAME_TAKEN (%s); another owner may use it', async (_, name) => {
    const [owner, other] = await Promise.all([signUp(t.app, newAccount('lo')), signUp(t.app, newAccount('lo'))]);
    await steps.create(owner, { name: 'Books' });
    expect(name).not.toBe('Books');
    expectError(await routes.create(owner.cookie, { name }), 409, 'BOARD_NAME_TAKEN');
    const [{ n }] = (await query<{ n: number }>(t.database, 'SELECT count(*)::int AS n FROM boards WHERE owner_id = $1', [owner.uid])) as [
      { n: number },
    ];
    expect(n).toBe(1);
    // Another owner may have it.
    expect((await steps.create(other, { name })).name).toBe(name);
  });

  it('is refused on rename (409, the board unchanged); a board may take a look-alike of its own name', async () => {
    const owner = await signUp(t.app, newAccount('lo'));
    await steps.create(owner, { name: 'Books' });
    const other = await steps.create(owner, { name: 'Snacks' });
    for (const [, name] of lookalikesOfBooks) {
      expectError(await routes.update(owner.cookie, other.id, { name }), 409, 'BOARD_NAME_TAKEN');
    }
    expect((await boardRows(t.database, other.id)).board?.name).toBe('Snacks');
    // Its own name, respelled: no other board looks like it.
    expect((await steps.update(owner, other.id, { name: `Sn${CYRILLIC_A}cks` })).name).toBe(`Sn${CYRILLIC_A}cks`);
  });

  it('simultaneous creations of look-alike names: exactly one 201, the rest 409 BOARD_NAME_TAKEN', async () => {
    const owner = await signUp(t.app, newAccount('lo'));
    const names = ['Plans', fullWidth('Plans'), `Pl${CYRILLIC_A}ns`, `Pla${ZERO_WIDTH}ns`];
    const responses = await Promise.all(names.map((name) => routes.create(owner.cookie, { name })));
    expect(responses.map((r) => r.statusCode).sort(), responses.map((r) => r.body).join('\n')).toEqual([201, 409, 409, 409]);
    for (const response of responses.filter((r) => r.statusCode === 409)) expectError(response, 409, 'BOARD_NAME_TAKEN');
    const rows = await query(t.database, 'SELECT id FROM boards WHERE owner_id = $1', [owner.uid]);
    expect(rows).toHaveLength(1);
  });

  it('names that differ in plain ASCII stay apart: "Top 10" and "Top l0", "Modern" and "Modem"', async () => {
    const owner = await signUp(t.app, newAccount('lo'));
    for (const name of ['Top 10', 'Top l0', 'Modern', 'Modem']) await steps.create(owner, { name });
  });
});

/** A database at migration 12 (before this issue's), on PGlite or a fresh PostgreSQL one. */
async function databaseAtMigration12(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const { database, drop } = TEST_DATABASE_URL
    ? await emptyPostgres(TEST_DATABASE_URL)
    : { database: await openDatabase({ pglite: new PGlite() }), drop: async () => undefined };
  await database.rawTransaction(async (tx) => {
    await tx.exec(
      'CREATE TABLE schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    for (const migration of MIGRATIONS.filter((m) => m.version <= 12)) {
      await tx.exec(migration.sql);
      await tx.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
    }
  });
  return { database, drop };
}

describe('rows from before migration 14', () => {
  let database: Database;
  let drop: () => Promise<void>;
  let app: FastifyInstance;
  let dataDir: string;
  const password = 'correct horse 1';
  const run = <Row>(text: string, params: unknown[] = []) => database.rawTransaction((tx) => tx.query<Row>(text, params));

  beforeAll(async () => {
    ({ database, drop } = await databaseAtMigration12());
    const hash = await hashPassword(password, TEST_ARGON2ID);
    // Two accounts that already look alike, an owner with two boards that already look alike,
    // and a held name with the old unsalted SHA-256 of its address.
    const addUser = (id: string, email: string) =>
      run('INSERT INTO users (id, username, email, password_hash) VALUES ($1, $1, $2, $3)', [id, email, hash]);
    await addUser('olduser1', 'old@example.test');
    await addUser('olduser2', `${CYRILLIC_O}ld@example.test`);
    await addUser('olduser3', 'other@example.test');
    await addUser('olduser4', `b${CYRILLIC_O}b@example.test`);
    const addBoard = (id: string, name: string, slug: string) =>
      run('INSERT INTO boards (id, owner_id, name, slug) VALUES ($1, $2, $3, $4)', [id, 'olduser3', name, slug]);
    await addBoard('oldboard1', 'Books', 'books');
    await addBoard('oldboard2', fullWidth('Books'), 'books-2');
    await run('INSERT INTO released_usernames (username, email_hash) VALUES ($1, $2)', [
      'gonename',
      createHash('sha256').update('gone@example.test').digest('hex'),
    ]);

    // The migration itself neither fails nor needs the app.
    expect(await migrate(database)).toContain(14);
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dormboard-lookalikes-'));
    app = await buildApp({
      config: {
        ...loadConfig({}),
        dataDir,
        logLevel: 'silent',
        clientDir: '/nonexistent',
        sessionCacheMs: 0,
        rateLimits: TEST_RATE_LIMITS,
        passwordHashing: TEST_ARGON2ID,
      },
      database,
    });
    // Starting fills the keys in (lookalikes/fill-keys.ts).
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('get their keys at start; of two that already look alike, the first gets it and both keep working', async () => {
    const users = await run<{ id: string; email_skeleton: string | null }>('SELECT id, email_skeleton FROM users ORDER BY id');
    expect(users.map((row) => [row.id, row.email_skeleton !== null])).toEqual([
      ['olduser1', true],
      ['olduser2', false],
      ['olduser3', true],
      ['olduser4', true],
    ]);
    const boards = await run<{ id: string; name_skeleton: string | null }>('SELECT id, name_skeleton FROM boards ORDER BY id');
    expect(boards.map((row) => [row.id, row.name_skeleton !== null])).toEqual([
      ['oldboard1', true],
      ['oldboard2', false],
    ]);
    // A stored address the one parser refuses signs in by its username (admin invalid-emails lists it).
    for (const identifier of ['olduser1', 'olduser2', 'olduser3', 'olduser4']) {
      const login = await app.inject({ method: 'POST', url: API.login, payload: { identifier, password } });
      expect(login.statusCode, login.body).toBe(200);
    }
  });

  it('a new look-alike of either is refused', async () => {
    expectError(await register(app, { ...newAccount('ln'), email: 'old@example.test' }), 409, 'EMAIL_TAKEN');
    // A stored address with a Cyrillic о: the plain one, however strict the address rules are now, is taken.
    expectError(await register(app, { ...newAccount('ln'), email: 'bob@example.test' }), 409, 'EMAIL_TAKEN');
    const login = await app.inject({ method: 'POST', url: API.login, payload: { identifier: 'olduser3', password } });
    const cookie = sessionCookie(login);
    expectError(await boardRoutes(app).create(cookie, { name: `B${ZERO_WIDTH}ooks` }), 409, 'BOARD_NAME_TAKEN');
  });

  it('a held name keeps no old SHA-256 of its address, and stays held for everyone', async () => {
    expect(await run('SELECT username, email_hash, email_hmac FROM released_usernames')).toEqual([
      { username: 'gonename', email_hash: '', email_hmac: null },
    ]);
    const again = await register(app, { username: 'gonename', email: 'gone@example.test', password: 'another pass 5' });
    expectError(again, 409, 'USERNAME_TAKEN');
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.js';
import { keyedHash, loadServerSecret } from '../../src/server/server-secret.js';
import { tempDir } from '../helpers/processes.js';

/** Issue 26 (9): the key of held names' addresses, kept outside the database. */
describe('the server secret', () => {
  const dataDir = () => tempDir('secret');

  it('is made once in DATA_DIR (owner-only) and the same on every start, even when two start at once', async () => {
    const dir = dataDir();
    const [first, second] = await Promise.all([
      loadServerSecret({ serverSecret: undefined, dataDir: dir }),
      loadServerSecret({ serverSecret: undefined, dataDir: dir }),
    ]);
    expect(first.length).toBe(32);
    expect(second.equals(first)).toBe(true);
    expect((await loadServerSecret({ serverSecret: undefined, dataDir: dir })).equals(first)).toBe(true);
    expect(fs.statSync(path.join(dir, 'server-secret')).mode & 0o777).toBe(0o600);
    // Nothing left beside it.
    expect(fs.readdirSync(dir)).toEqual(['server-secret']);
    // Another data directory, another secret.
    expect((await loadServerSecret({ serverSecret: undefined, dataDir: dataDir() })).equals(first)).toBe(false);
  });

  it('is SERVER_SECRET when set (every process sharing a database sets the same), and nothing is written', async () => {
    const dir = dataDir();
    const secret = 'x'.repeat(40);
    const config = loadConfig({ SERVER_SECRET: secret });
    expect(config.serverSecret).toBe(secret);
    expect((await loadServerSecret({ serverSecret: config.serverSecret, dataDir: dir })).toString()).toBe(secret);
    expect(fs.readdirSync(dir)).toEqual([]);
  });

  it('refuses to start with a SERVER_SECRET shorter than 32 characters', () => {
    expect(() => loadConfig({ SERVER_SECRET: 'short' })).toThrow(/SERVER_SECRET must be at least 32 characters/);
    expect(loadConfig({}).serverSecret).toBeUndefined();
  });

  it('refuses a damaged secret file rather than keying with nothing', async () => {
    const dir = dataDir();
    fs.writeFileSync(path.join(dir, 'server-secret'), '');
    await expect(loadServerSecret({ serverSecret: undefined, dataDir: dir })).rejects.toThrow(/holds no secret/);
  });

  it('keys a hash per purpose: the same text under two purposes or two secrets differs', () => {
    const a = Buffer.alloc(32, 1);
    const b = Buffer.alloc(32, 2);
    expect(keyedHash(a, 'username-hold', 'x@y.test')).toMatch(/^[0-9a-f]{64}$/);
    expect(keyedHash(a, 'username-hold', 'x@y.test')).toBe(keyedHash(a, 'username-hold', 'x@y.test'));
    expect(keyedHash(a, 'username-hold', 'x@y.test')).not.toBe(keyedHash(b, 'username-hold', 'x@y.test'));
    expect(keyedHash(a, 'username-hold', 'x@y.test')).not.toBe(keyedHash(a, 'other', 'x@y.test'));
  });
});

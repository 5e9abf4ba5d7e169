import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS, isCommonPassword } from '../../src/server/auth/common-passwords.js';

describe('the common-password list', () => {
  it('holds at least the 10,000 most common passwords, lower-cased, each once', () => {
    const lines = readFileSync(new URL('../../src/server/auth/common-passwords.txt', import.meta.url), 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(10_000);
    expect(new Set(lines).size).toBe(lines.length);
    expect(COMMON_PASSWORDS.size).toBe(lines.length);
    expect(lines.filter((line) => line !== line.toLowerCase())).toEqual([]);
    // Ranked: the most common come first.
    expect(lines.slice(0, 2)).toEqual(['123456', 'password']);
  });

  it.each(['password1', 'qwertyuiop', '12345678', 'iloveyou'])('contains %s', (password) => {
    expect(COMMON_PASSWORDS.has(password)).toBe(true);
  });

  it('is checked ignoring case', () => {
    expect(isCommonPassword('Password1')).toBe(true);
    expect(isCommonPassword('QWERTYUIOP')).toBe(true);
    expect(isCommonPassword('password1')).toBe(true);
  });

  it('lets uncommon passwords through', () => {
    for (const password of ['correct horse 1', 'studentliving1', 'Tr4mpoline-Dormitory']) {
      expect(isCommonPassword(password)).toBe(false);
    }
  });
});

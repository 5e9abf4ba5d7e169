import { describe, expect, it } from 'vitest';
import { CONFUSABLE_PAIRS, CONFUSABLES_UNICODE_VERSION } from '../../src/server/lookalikes/confusables.js';
import { lookalikeKey, skeleton } from '../../src/server/lookalikes/skeleton.js';

/** Issue 26 (13): Unicode TS #39's skeleton, and the key uniqueness checks compare. */
describe('skeleton (UTS #39)', () => {
  it('maps characters of other scripts to the prototype they look like', () => {
    // Cyrillic а (U+0430) and р (U+0440), Greek ο (U+03BF).
    expect(skeleton('p\u0430y\u0440al')).toBe(skeleton('paypal'));
    expect(skeleton('g\u03BF\u03BFgle')).toBe('google');
    // Mathematical alphanumerics and a Latin alpha.
    expect(skeleton('\u{1D52D}\u{1D4B6}\u1EFF\u{1D561}\u{1D552}\u2113')).toBe(skeleton('paypal'));
    expect(skeleton('\u0251pple')).toBe('apple');
  });

  it('maps ASCII look-alikes to one prototype too: 1, I and l; 0 and O; rn and m', () => {
    expect(skeleton('1')).toBe('l');
    expect(skeleton('I')).toBe('l');
    expect(skeleton('0')).toBe('O');
    expect(skeleton('m')).toBe(skeleton('rn'));
    expect(skeleton('paul1')).toBe(skeleton('paull'));
  });

  it('drops what does not show (zero-width space, joiners, soft hyphen, variation selectors)', () => {
    expect(skeleton('bo\u200Boks\u200D\u00AD\uFE0F\u2060')).toBe('books');
  });

  it('is in NFD before and after the mapping, so composed and decomposed accents are one', () => {
    expect(skeleton('caf\u00E9')).toBe(skeleton('cafe\u0301'));
    expect(skeleton('caf\u00E9')).toBe(skeleton('caf\u00E9').normalize('NFD'));
  });

  it('is a fixed point for every character of the table: the skeleton of a skeleton is itself', () => {
    // Ǆ gives D, Z and a caron, and a caron looks like a breve: one pass alone would stop at the caron.
    expect(skeleton('\u01C4')).toBe(skeleton('DZ\u0306'));
    for (const pair of CONFUSABLE_PAIRS.split(/\s+/).filter(Boolean)) {
      const char = String.fromCodePoint(parseInt(pair.split('>')[0]!, 16));
      expect(skeleton(skeleton(char)), pair).toBe(skeleton(char));
      expect(skeleton(skeleton(char, { keepAscii: true }), { keepAscii: true }), pair).toBe(skeleton(char, { keepAscii: true }));
    }
  });

  it("is built from a current confusables.txt (Node's own Unicode version), every pair well formed", () => {
    expect(CONFUSABLES_UNICODE_VERSION).toBe(process.versions.unicode);
    const pairs = CONFUSABLE_PAIRS.split(/\s+/).filter(Boolean);
    expect(pairs.length).toBeGreaterThan(5_000);
    for (const pair of pairs) expect(pair).toMatch(/^[0-9a-f]+>[0-9a-f]+(\.[0-9a-f]+)*$/);
    // Cyrillic ш (U+0448) looks like w only since Unicode 14's table: an old copy would miss it.
    expect(skeleton('\u0448')).toBe('w');
  });
});

describe('lookalikeKey', () => {
  it('makes a Cyrillic, Greek, full-width or invisible variant the same name', () => {
    const key = lookalikeKey('alice@example.test');
    expect(lookalikeKey('\u0430lice@example.test')).toBe(key);
    expect(lookalikeKey('alice@ex\u0430mple.test')).toBe(key);
    expect(lookalikeKey('\uFF41lice@example.test')).toBe(key);
    expect(lookalikeKey('al\u200Bice@example.test')).toBe(key);
    expect(lookalikeKey('ALICE@Example.TEST')).toBe(key);
    expect(lookalikeKey('Dorm \u0456deas')).toBe(lookalikeKey('dorm ideas'));
    expect(lookalikeKey('\uFF24\uFF4F\uFF52\uFF4D')).toBe(lookalikeKey('Dorm'));
    // A capital of another script looks like the Latin capital (case is folded after the skeleton)...
    expect(lookalikeKey('\u0410pple')).toBe(lookalikeKey('apple'));
    expect(lookalikeKey('\u0412ooks')).toBe(lookalikeKey('Books'));
    // ...and its small letter need not look like the Latin small one: в is not b.
    expect(lookalikeKey('\u0432ooks')).not.toBe(lookalikeKey('books'));
  });

  it('keeps names that differ in plain ASCII apart (two real mailboxes are two people)', () => {
    expect(lookalikeKey('paul1@uni.test')).not.toBe(lookalikeKey('paull@uni.test'));
    expect(lookalikeKey('morris@uni.test')).not.toBe(lookalikeKey('rnorris@uni.test'));
    expect(lookalikeKey('bob0')).not.toBe(lookalikeKey('bobo'));
    expect(lookalikeKey('Books')).not.toBe(lookalikeKey('Book'));
  });

  it('keeps different words of other scripts apart', () => {
    expect(lookalikeKey('Книги')).not.toBe(lookalikeKey('Кино'));
    expect(lookalikeKey('日記')).not.toBe(lookalikeKey('日誌'));
  });
});

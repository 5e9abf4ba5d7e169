import fc from 'fast-check';
import addressparser from 'nodemailer/lib/addressparser';
import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH } from '../../src/shared/limits.js';
import { parseEmail } from '../../src/shared/validation/email.js';

/**
 * The one e-mail parser (issue 26 points 4 and 13): an addr-spec with a dot-atom local part and
 * LDH domain labels, NFKC and lower case, one trailing dot dropped. What it accepts is one mailbox
 * to everything downstream, nodemailer's own address-list parser included.
 */

describe('parseEmail', () => {
  it('returns the address, its local part and its domain', () => {
    expect(parseEmail('first.last+tag@sub.example.ac.uk')).toEqual({
      address: 'first.last+tag@sub.example.ac.uk',
      local: 'first.last+tag',
      domain: 'sub.example.ac.uk',
    });
    // Every RFC 5322 atext character is fine in a local part.
    expect(parseEmail("a!#$%&'*+/=?^_`{|}~-z@x.edu")?.local).toBe("a!#$%&'*+/=?^_`{|}~-z");
    expect(parseEmail('a@b.co')?.address).toBe('a@b.co');
    expect(parseEmail('x@xn--jgeva-dua.ee')?.domain).toBe('xn--jgeva-dua.ee');
  });

  it.each([
    // One string, two recipients (issue 26 point 4): separators, brackets, quotes, comments.
    'att@evil.test,x.campus.example.edu',
    'att@evil.test;x.campus.example.edu',
    'att@evil.test>x.campus.example.edu',
    'att@evil.test<x.campus.example.edu',
    'att@evil.test,x@campus.example.edu',
    '"a b"@x.edu',
    '"a"@x.edu',
    'a@b@c.edu',
    '<a@b.edu>',
    'Name <a@b.edu>',
    'a(c)@b.edu',
    'a@b.edu(c)',
    'a\\b@x.edu',
    'a[b]@x.edu',
    'a@[127.0.0.1]',
    'a:b@x.edu',
    'a b@x.edu',
    'a@x.edu ',
    'a@x.edu\n',
    'a@x.edu\r\nBcc: b@evil.test',
  ])('refuses %j', (text) => {
    expect(parseEmail(text)).toBeUndefined();
  });

  it('one trailing dot of the domain is dropped (13): alice@example.test. is alice@example.test; more is refused', () => {
    expect(parseEmail('alice@example.test.')?.address).toBe('alice@example.test');
    expect(parseEmail('alice@example.test..')).toBeUndefined();
    expect(parseEmail('alice@example.')).toBeUndefined();
    expect(parseEmail('alice.@example.test')).toBeUndefined();
  });

  it('dots: none leading, trailing or doubled in the local part; no empty label in the domain', () => {
    for (const text of [
      '.alice@x.edu',
      'alice.@x.edu',
      'al..ice@x.edu',
      'alice@.x.edu',
      'alice@x..edu',
      'alice@x.edu..',
      '@x.edu',
      'alice@',
    ]) {
      expect(parseEmail(text), text).toBeUndefined();
    }
    expect(parseEmail('a.l.i.c.e@x.edu')?.local).toBe('a.l.i.c.e');
  });

  it('domain labels: letters, digits, inner hyphens, at most 63 characters, at least two labels, a top label not all digits', () => {
    expect(parseEmail('a@my-dorm.x-1.edu')?.domain).toBe('my-dorm.x-1.edu');
    expect(parseEmail('a@a--b.edu')?.domain).toBe('a--b.edu');
    expect(parseEmail(`a@${'b'.repeat(63)}.edu`)).toBeDefined();
    expect(parseEmail('a@1.2.3.4.example')).toBeDefined();
    for (const text of [
      'a@-dorm.edu',
      'a@dorm-.edu',
      'a@dorm.-edu',
      'a@dorm.edu-',
      'a@dorm_x.edu',
      'a@dorm',
      'a@localhost',
      'a@127.0.0.1',
      `a@${'b'.repeat(64)}.edu`,
      'a@dorm.ed!u',
    ]) {
      expect(parseEmail(text), text).toBeUndefined();
    }
  });

  it('lengths: the whole address at most EMAIL_MAX_LENGTH (254), the local part at most 64 (SMTP)', () => {
    const fits = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(EMAIL_MAX_LENGTH - 64 - 1 - 64 - 64 - 4)}.com`;
    expect(fits).toHaveLength(EMAIL_MAX_LENGTH);
    expect(parseEmail(fits)?.address).toBe(fits);
    expect(parseEmail(`e${fits.slice(1).replace('.com', 'x.com')}`)).toBeUndefined();
    expect(parseEmail(`${'a'.repeat(65)}@x.edu`)).toBeUndefined();
    expect(parseEmail('a'.repeat(100_000))).toBeUndefined();
  });

  it('NFKC and lower case: full-width, ligatures, circled letters and capitals are the plain address', () => {
    expect(parseEmail('ＡＬＩＣＥ＠ｃａｍｐｕｓ．ｅｄｕ')?.address).toBe('alice@campus.edu');
    expect(parseEmail('Alice@Campus.EDU')?.address).toBe('alice@campus.edu');
    expect(parseEmail('ﬁona@campus.edu')?.address).toBe('fiona@campus.edu');
    expect(parseEmail('ⓑob@campus.edu')?.address).toBe('bob@campus.edu');
    // Full-width separators fold into real ones, and are refused as those are.
    expect(parseEmail('att@evil.test，x.campus.example.edu')).toBeUndefined();
    expect(parseEmail('att@evil.test＠campus.example.edu')).toBeUndefined();
  });

  it('letters outside ASCII are refused, in the local part and the domain (a Cyrillic а is a look-alike, never an address)', () => {
    for (const text of ['\u0430lice@campus.edu', 'alice@c\u0430mpus.edu', 'café@campus.edu', 'alice@jõgeva.ee', 'al\u200bice@campus.edu']) {
      expect(parseEmail(text), text).toBeUndefined();
    }
  });
});

/** Characters an address is made of, the ones that break one, and look-alikes that fold into them. */
const plainChar = fc.constantFrom(...'abcxyzABCXYZ0189');
const anyChar = fc.oneof(
  { weight: 6, arbitrary: plainChar },
  { weight: 3, arbitrary: fc.constantFrom('.', '-', '@') },
  { weight: 2, arbitrary: fc.constantFrom(..."!#$%&'*+/=?^_`{|}~") },
  { weight: 2, arbitrary: fc.constantFrom(...',;<>"()[]\\: \t\r\n') },
  { weight: 2, arbitrary: fc.constantFrom('＠', '．', 'Ａ', 'ｚ', 'ﬁ', 'ⓑ', 'а', 'é', '\u200b', '，') },
);
const word = fc.oneof(
  { weight: 3, arbitrary: fc.array(plainChar, { minLength: 1, maxLength: 8 }).map((chars) => chars.join('')) },
  { weight: 1, arbitrary: fc.array(anyChar, { minLength: 1, maxLength: 8 }).map((chars) => chars.join('')) },
);
/** Mostly local@label.label shapes, so that a good share parse and the property is not vacuous. */
const candidate = fc.oneof(
  fc
    .tuple(fc.array(word, { minLength: 1, maxLength: 3 }), fc.array(word, { minLength: 2, maxLength: 4 }), fc.constantFrom('', '.', '..'))
    .map(([local, labels, end]) => `${local.join('.')}@${labels.join('.')}${end}`),
  fc.array(anyChar, { maxLength: 40 }).map((chars) => chars.join('')),
);

describe('parseEmail: properties', () => {
  it('anything it accepts has exactly one @, round-trips, and is exactly one mailbox to nodemailer', () => {
    let accepted = 0;
    fc.assert(
      fc.property(candidate, (text) => {
        const parsed = parseEmail(text);
        if (!parsed) return;
        accepted++;
        expect(parsed.address.split('@')).toHaveLength(2);
        expect(parsed.address).toBe(`${parsed.local}@${parsed.domain}`);
        expect(parseEmail(parsed.address)).toEqual(parsed);
        expect(parsed.address).toMatch(/^[\x21-\x7e]+$/);
        expect(addressparser(parsed.address)).toEqual([{ name: '', address: parsed.address }]);
      }),
      { numRuns: 5_000 },
    );
    // The generator must reach the accepting side often enough for the property to mean something.
    expect(accepted).toBeGreaterThan(250);
  });
});

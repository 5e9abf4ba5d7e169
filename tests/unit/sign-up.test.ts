import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/shared/errors.js';
import { parseEmail } from '../../src/shared/validation/email.js';
import { normalizeSignUp, validateSignUp, type SignUpInput } from '../../src/shared/validation/sign-up.js';
import { parseIdentifier } from '../../src/shared/validation/sign-in.js';

/** A sign-up that passes every rule; each test breaks one field. */
const VALID: SignUpInput = { username: 'alice_01', email: 'alice@example.com', password: 'password1' };

const check = (changes: Partial<SignUpInput>) => validateSignUp({ ...VALID, ...changes });
/** What the server does: lower-case, then validate. */
const checkRaw = (changes: Partial<SignUpInput>) => validateSignUp(normalizeSignUp({ ...VALID, ...changes }));

describe('validateSignUp: the spec text itself (section 5)', () => {
  // Literal strings copied from the spec, so a typo in ERRORS fails here.
  it('uses the exact spec wording for every rule', () => {
    expect(check({ username: '', email: '', password: '' })).toEqual(['Fill in all the fields.']);
    expect(check({ username: ' alice' })).toContain('Remove spaces or tabs in your username.');
    expect(check({ username: 'al' })).toEqual(['Username must be 3-20 characters long.']);
    expect(check({ username: 'ali-ce' })).toEqual(['Invalid username.']);
    expect(check({ email: 'nope' })).toEqual(['Invalid email address.']);
    expect(check({ password: 'password1 ' })).toEqual(['Remove spaces or tabs in your password.']);
    expect(check({ password: 'short' })).toEqual(['Password must be 8-32 characters long.']);
  });

  it('ERRORS holds the same strings', () => {
    expect(ERRORS.FILL_IN_ALL_FIELDS).toBe('Fill in all the fields.');
    expect(ERRORS.USERNAME_SPACES).toBe('Remove spaces or tabs in your username.');
    expect(ERRORS.USERNAME_LENGTH).toBe('Username must be 3-20 characters long.');
    expect(ERRORS.USERNAME_INVALID).toBe('Invalid username.');
    expect(ERRORS.USERNAME_TAKEN).toBe('Username has already been registered.');
    expect(ERRORS.EMAIL_INVALID).toBe('Invalid email address.');
    expect(ERRORS.PASSWORD_SPACES).toBe('Remove spaces or tabs in your password.');
    expect(ERRORS.PASSWORD_LENGTH).toBe('Password must be 8-32 characters long.');
  });
});

describe('validateSignUp: a valid sign-up', () => {
  it('has no messages', () => {
    expect(validateSignUp(VALID)).toEqual([]);
  });

  it('never adds the uniqueness messages (only the server can know those)', () => {
    const all = [
      check({ username: ' a', email: 'x', password: ' y' }),
      check({ username: '', email: '', password: '' }),
      validateSignUp(VALID),
    ].flat();
    expect(all).not.toContain(ERRORS.USERNAME_TAKEN);
    expect(all).not.toContain(ERRORS.EMAIL_TAKEN);
  });

  it('accepts any username of 3-20 allowed characters with a valid e-mail and password (property)', () => {
    const usernameChar = fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_.'.split(''));
    const passwordChar = fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 1 });
    fc.assert(
      fc.property(
        fc.string({ unit: usernameChar, minLength: 3, maxLength: 20 }),
        // Printable ASCII without outer whitespace: first and last characters are not spaces.
        fc.string({ unit: passwordChar, minLength: 8, maxLength: 32 }).filter((p) => p === p.trim()),
        (username, password) => {
          expect(validateSignUp({ username, email: 'someone@example.org', password })).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('validateSignUp: empty fields', () => {
  it.each([
    ['username', { username: '' }],
    ['email', { email: '' }],
    ['password', { password: '' }],
    ['username and email', { username: '', email: '' }],
    ['all three', { username: '', email: '', password: '' }],
  ])('an empty %s gives "Fill in all the fields." exactly once', (_, changes) => {
    expect(check(changes)).toEqual([ERRORS.FILL_IN_ALL_FIELDS]);
  });

  it('an empty field skips its own rules but the other fields are still checked', () => {
    expect(check({ username: '', email: 'bad', password: 'short' })).toEqual([
      ERRORS.FILL_IN_ALL_FIELDS,
      ERRORS.EMAIL_INVALID,
      ERRORS.PASSWORD_LENGTH,
    ]);
    expect(check({ password: '', username: 'A-' })).toEqual([ERRORS.FILL_IN_ALL_FIELDS, ERRORS.USERNAME_LENGTH, ERRORS.USERNAME_INVALID]);
  });

  it('a username of only spaces is not accepted', () => {
    const messages = check({ username: '   ' });
    expect(messages.length).toBeGreaterThan(0);
  });
});

describe('validateSignUp: order of accumulated messages', () => {
  it('lists every failing rule in the spec order: username, e-mail, password', () => {
    expect(check({ username: ' a', email: 'not-an-email', password: ' x' })).toEqual([
      'Remove spaces or tabs in your username.',
      'Username must be 3-20 characters long.',
      'Invalid username.',
      'Invalid email address.',
      'Remove spaces or tabs in your password.',
      'Password must be 8-32 characters long.',
    ]);
  });

  it('keeps the order when only some rules fail', () => {
    expect(check({ username: 'A', password: 'pass\t' })).toEqual([
      ERRORS.USERNAME_LENGTH,
      ERRORS.USERNAME_INVALID,
      ERRORS.PASSWORD_SPACES,
      ERRORS.PASSWORD_LENGTH,
    ]);
    expect(check({ email: 'x@', password: 'p'.repeat(40) })).toEqual([ERRORS.EMAIL_INVALID, ERRORS.PASSWORD_LENGTH]);
  });

  it('never repeats a message', () => {
    const messages = check({ username: '\t ab\t', email: ' @ ', password: ' \t ' });
    expect(new Set(messages).size).toBe(messages.length);
  });
});

describe('validateSignUp: username', () => {
  it.each([
    ['a leading space', ' alice'],
    ['a trailing space', 'alice '],
    ['a leading tab', '\talice'],
    ['a trailing tab', 'alice\t'],
    ['a trailing newline', 'alice\n'],
  ])('%s asks to remove spaces or tabs (and the character is also invalid)', (_, username) => {
    expect(check({ username })).toEqual([ERRORS.USERNAME_SPACES, ERRORS.USERNAME_INVALID]);
  });

  it('an inner space is only an invalid character, not an outer one', () => {
    expect(check({ username: 'ali ce' })).toEqual([ERRORS.USERNAME_INVALID]);
  });

  it.each([
    [2, [ERRORS.USERNAME_LENGTH]],
    [3, []],
    [20, []],
    [21, [ERRORS.USERNAME_LENGTH]],
  ])('length %i', (length, expected) => {
    expect(check({ username: 'a'.repeat(length) })).toEqual(expected);
  });

  it('a 1-character username is too short', () => {
    expect(check({ username: 'a' })).toEqual([ERRORS.USERNAME_LENGTH]);
  });

  it.each(['abc', 'a_b', 'a.b', '012', '___', '...', 'z9_.', 'abcdefghijklmnopqrst', 'uvwxyz0123456789'])(
    'allows a-z 0-9 _ . (%s)',
    (username) => {
      expect(check({ username })).toEqual([]);
    },
  );

  it.each(['al-ice', 'al@ice', 'al!ce', 'alïce', 'al+ce', 'al/ce', 'al#ce', 'ali\u00a0ce', '東京都', 'ab😀'])(
    'refuses other characters (%s)',
    (username) => {
      expect(check({ username })).toContain(ERRORS.USERNAME_INVALID);
    },
  );

  it('refuses upper case when it reaches the validator un-normalized', () => {
    expect(check({ username: 'Alice' })).toEqual([ERRORS.USERNAME_INVALID]);
  });

  it('upper case is fine once normalized (lower-cased before submit)', () => {
    expect(checkRaw({ username: 'ALICE_01' })).toEqual([]);
    expect(checkRaw({ username: 'Al.Ice' })).toEqual([]);
  });
});

describe('validateSignUp: e-mail', () => {
  it.each(['a@b.co', 'alice@example.com', 'first.last+tag@sub.example.ac.uk', 'x_y-z@mail-server.io', 'ALICE@EXAMPLE.COM'])(
    'accepts %s',
    (email) => {
      expect(check({ email })).toEqual([]);
      expect(parseEmail(email)).toBeDefined();
    },
  );

  it.each([
    'plain',
    'alice@',
    '@example.com',
    'alice@example',
    'alice@.com',
    'alice@example.',
    'alice@@example.com',
    'al ice@example.com',
    'alice@exa mple.com',
    ' alice@example.com',
    'alice@example.com ',
    'alice@example.com\t',
    'alice.example.com',
    'a@b@c.com',
  ])('refuses %j', (email) => {
    expect(check({ email })).toEqual([ERRORS.EMAIL_INVALID]);
    expect(parseEmail(email)).toBeUndefined();
  });

  it('refuses an address longer than 254 characters', () => {
    const local = 'a'.repeat(64);
    const fits = `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(254 - 64 - 1 - 64 - 64 - 4)}.com`;
    expect(fits).toHaveLength(254);
    expect(check({ email: fits })).toEqual([]);
    expect(check({ email: `a${fits}` })).toEqual([ERRORS.EMAIL_INVALID]);
  });
});

describe('validateSignUp: REGISTRATION=domains with a *. entry (issue 26), as the create-account form runs it', () => {
  const policy = { emailDomains: ['*.campus.example.edu'] };
  const form = (email: string) => validateSignUp(normalizeSignUp({ ...VALID, email }), {}, policy);

  it('a string holding a second address is "Invalid email address.", never let through by the domain check', () => {
    for (const email of [
      'att@evil.test,x.campus.example.edu',
      'att@evil.test;x.campus.example.edu',
      'att@evil.test>x.campus.example.edu',
    ]) {
      expect(form(email), email).toEqual([ERRORS.EMAIL_INVALID]);
    }
  });

  it('a subdomain address passes (a trailing dot too); another domain is told the configured list', () => {
    expect(form('stu@cs.campus.example.edu')).toEqual([]);
    expect(form('stu@cs.campus.example.edu.')).toEqual([]);
    expect(form('stu@evil.test')).toEqual(['Sign-ups are limited to addresses at *.campus.example.edu.']);
  });
});

describe('validateSignUp: password', () => {
  it.each([
    [7, [ERRORS.PASSWORD_LENGTH]],
    [8, []],
    [32, []],
    [33, [ERRORS.PASSWORD_LENGTH]],
  ])('length %i', (length, expected) => {
    expect(check({ password: 'p'.repeat(length) })).toEqual(expected);
  });

  it.each([
    ['a leading space', ' password1'],
    ['a trailing space', 'password1 '],
    ['a leading tab', '\tpassword1'],
    ['a trailing tab', 'password1\t'],
  ])('%s asks to remove spaces or tabs', (_, password) => {
    expect(check({ password })).toEqual([ERRORS.PASSWORD_SPACES]);
  });

  it('inner spaces are allowed', () => {
    expect(check({ password: 'correct horse battery' })).toEqual([]);
  });

  it('outer whitespace counts towards the length', () => {
    // 1 space + 6 letters = 7 characters: both rules fail.
    expect(check({ password: ' abcdef' })).toEqual([ERRORS.PASSWORD_SPACES, ERRORS.PASSWORD_LENGTH]);
  });

  it('any characters are allowed, upper case included', () => {
    expect(check({ password: 'Pässwörd!#€' })).toEqual([]);
  });
});

describe('e-mail look-alikes', () => {
  it('refuses addresses holding invisible characters: controls, format characters, separators, fillers', () => {
    for (const char of [
      '\u200b',
      '\u200c',
      '\u200d',
      '\u2060',
      '\ufeff',
      '\u00ad',
      '\u200f',
      '\u202e',
      '\u3164',
      '\u115f',
      '\u00a0',
      '\u2028',
      '\u0000',
      '\u001b',
      '\u034f',
      '\ufe0f',
      '\u{e0041}',
    ]) {
      expect(parseEmail(`al${char}ice@campus.edu`), JSON.stringify(char)).toBeUndefined();
    }
    expect(parseEmail('alice@campus.edu')).toBeDefined();
    // Letters outside ASCII are refused outright (issue 26): a Cyrillic 'а' is a look-alike.
    expect(parseEmail('café@campus.edu')).toBeUndefined();
    expect(parseEmail('аlice@campus.edu')).toBeUndefined();
  });

  it('normalizeSignUp folds compatibility forms (NFKC) and case, so variants of one address are one address', () => {
    expect(parseEmail('ＡＬＩＣＥ＠ｃａｍｐｕｓ．ｅｄｕ')?.address).toBe('alice@campus.edu');
    expect(parseEmail('ﬁona@campus.edu')?.address).toBe('fiona@campus.edu');
    expect(parseEmail('ⓑob@campus.edu')?.address).toBe('bob@campus.edu');
    expect(normalizeSignUp({ username: 'a', email: 'Ａlice@Campus.edu', password: 'p' }).email).toBe('alice@campus.edu');
    expect(parseIdentifier('ＡＬＩＣＥ＠ｃａｍｐｕｓ．ｅｄｕ')).toEqual({ by: 'email', email: 'alice@campus.edu' });
  });
});

describe('normalizeSignUp', () => {
  it('lower-cases the username and the e-mail, not the password', () => {
    expect(normalizeSignUp({ username: 'ALICE.Smith', email: 'Alice@Example.COM', password: 'PassWord1' })).toEqual({
      username: 'alice.smith',
      email: 'alice@example.com',
      password: 'PassWord1',
    });
  });

  it('does not trim: outer spaces are reported, not silently removed', () => {
    const normalized = normalizeSignUp({ username: ' Alice ', email: 'a@b.co', password: ' pw ' });
    expect(normalized).toEqual({ username: ' alice ', email: 'a@b.co', password: ' pw ' });
    expect(validateSignUp(normalized)).toContain(ERRORS.USERNAME_SPACES);
    expect(validateSignUp(normalized)).toContain(ERRORS.PASSWORD_SPACES);
  });

  it('does not change the input object', () => {
    const input = { username: 'ABC', email: 'A@B.CO', password: 'X' };
    normalizeSignUp(input);
    expect(input).toEqual({ username: 'ABC', email: 'A@B.CO', password: 'X' });
  });
});

describe('validateSignUp: what only the server knows', () => {
  it('a taken username follows the username rules; a taken e-mail comes last', () => {
    expect(validateSignUp({ ...VALID, email: 'nope' }, { usernameTaken: true })).toEqual([
      'Username has already been registered.',
      'Invalid email address.',
    ]);
    expect(validateSignUp({ ...VALID, password: 'short' }, { usernameTaken: true, emailTaken: true })).toEqual([
      'Username has already been registered.',
      'Password must be 8-32 characters long.',
      'Email already registered.',
    ]);
    expect(validateSignUp(VALID, {})).toEqual([]);
  });

  it('a common password comes right after the password rules, before a taken e-mail', () => {
    expect(validateSignUp({ ...VALID, email: 'nope' }, { commonPassword: true, emailTaken: true, usernameTaken: true })).toEqual([
      'Username has already been registered.',
      'Invalid email address.',
      'This password is too common.',
      'Email already registered.',
    ]);
    expect(validateSignUp(VALID, { commonPassword: true })).toEqual(['This password is too common.']);
  });

  it('only a password that passes the 8-32 rule is reported as common', () => {
    expect(validateSignUp({ ...VALID, password: 'qwerty' }, { commonPassword: true })).toEqual(['Password must be 8-32 characters long.']);
    expect(validateSignUp({ ...VALID, password: 'p'.repeat(33) }, { commonPassword: true })).toEqual([
      'Password must be 8-32 characters long.',
    ]);
    expect(validateSignUp({ ...VALID, password: '' }, { commonPassword: true })).toEqual(['Fill in all the fields.']);
  });

  it('password length counts characters, not UTF-16 units', () => {
    expect(validateSignUp({ ...VALID, password: '😀😀😀😀' })).toEqual(['Password must be 8-32 characters long.']);
    expect(validateSignUp({ ...VALID, password: '😀'.repeat(8) })).toEqual([]);
    expect(validateSignUp({ ...VALID, password: '😀'.repeat(33) })).toEqual(['Password must be 8-32 characters long.']);
  });
});

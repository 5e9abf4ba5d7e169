import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/shared/errors.js';
import { parseIdentifier, validateSignIn } from '../../src/shared/validation/sign-in.js';

describe('validateSignIn', () => {
  it('accepts an identifier and a password', () => {
    expect(validateSignIn({ identifier: 'alice', password: 'password1' })).toEqual([]);
    expect(validateSignIn({ identifier: 'alice@example.com', password: 'x' })).toEqual([]);
  });

  it('asks for both fields with the spec text', () => {
    expect(validateSignIn({ identifier: '', password: 'password1' })).toEqual(['Fill in all the fields.']);
    expect(ERRORS.FILL_IN_ALL_FIELDS).toBe('Fill in all the fields.');
  });

  it.each([
    ['an empty identifier', { identifier: '', password: 'password1' }],
    ['an empty password', { identifier: 'alice', password: '' }],
    ['both empty', { identifier: '', password: '' }],
    ['an identifier of spaces', { identifier: '   ', password: 'password1' }],
    ['an identifier of tabs and newlines', { identifier: '\t\n', password: 'password1' }],
  ])('%s gives "Fill in all the fields." once', (_, input) => {
    expect(validateSignIn(input)).toEqual([ERRORS.FILL_IN_ALL_FIELDS]);
  });

  it('does not judge the password beyond being present (a wrong one is for the server to say)', () => {
    expect(validateSignIn({ identifier: 'alice', password: 'a' })).toEqual([]);
    expect(validateSignIn({ identifier: 'alice', password: ' padded ' })).toEqual([]);
  });
});

describe('parseIdentifier', () => {
  it('treats an e-mail-looking identifier as an e-mail', () => {
    expect(parseIdentifier('alice@example.com')).toEqual({ by: 'email', email: 'alice@example.com' });
  });

  it('treats anything else as a username', () => {
    expect(parseIdentifier('alice_01')).toEqual({ by: 'username', username: 'alice_01' });
    expect(parseIdentifier('alice.smith')).toEqual({ by: 'username', username: 'alice.smith' });
    // Not a full e-mail: no dot in the domain, or nothing before the '@'.
    expect(parseIdentifier('alice@localhost')).toEqual({ by: 'username', username: 'alice@localhost' });
    expect(parseIdentifier('@alice')).toEqual({ by: 'username', username: '@alice' });
  });

  it('lower-cases both kinds', () => {
    expect(parseIdentifier('Alice@Example.COM')).toEqual({ by: 'email', email: 'alice@example.com' });
    expect(parseIdentifier('ALICE_01')).toEqual({ by: 'username', username: 'alice_01' });
  });

  it('trims spaces, tabs and newlines around both kinds', () => {
    expect(parseIdentifier('  alice@example.com\t')).toEqual({ by: 'email', email: 'alice@example.com' });
    expect(parseIdentifier('\n Alice \t')).toEqual({ by: 'username', username: 'alice' });
  });

  it('an e-mail is what the one parser accepts (issue 26): its spelling signs in; anything else is a username', () => {
    expect(parseIdentifier('alice@example.test.')).toEqual({ by: 'email', email: 'alice@example.test' });
    expect(parseIdentifier('att@evil.test,x@campus.example.edu')).toEqual({
      by: 'username',
      username: 'att@evil.test,x@campus.example.edu',
    });
    expect(parseIdentifier('"a b"@x.edu')).toEqual({ by: 'username', username: '"a b"@x.edu' });
  });

  it('keeps inner characters as they are', () => {
    expect(parseIdentifier('al ice')).toEqual({ by: 'username', username: 'al ice' });
    expect(parseIdentifier('first.last+tag@sub.example.org')).toEqual({
      by: 'email',
      email: 'first.last+tag@sub.example.org',
    });
  });
});

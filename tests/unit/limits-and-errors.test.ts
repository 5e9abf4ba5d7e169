import { describe, expect, it } from 'vitest';
import { ERRORS, errorCodeOf, isErrorCode, type ErrorCode } from '../../src/shared/errors.js';
import * as limits from '../../src/shared/limits.js';

describe('section 9 constants', () => {
  it.each<[keyof typeof limits, unknown]>([
    ['POST_IMAGE_QUALITY', 0.6],
    ['POST_IMAGE_CONVERT_SIZE', 3_000_000],
    ['POST_IMAGE_MAX_BYTES', 3_000_000],
    ['ICON_QUALITY', 0.4],
    ['ICON_CONVERT_SIZE', 1_000_000],
    ['ICON_MAX_BYTES', 500_000],
    ['DESCRIPTION_MAX_LENGTH', 200],
    ['LINK_MAX_LENGTH', 200],
    ['USERNAME_MIN_LENGTH', 3],
    ['USERNAME_MAX_LENGTH', 20],
    ['PASSWORD_MIN_LENGTH', 8],
    ['PASSWORD_MAX_LENGTH', 32],
    ['SEARCH_MAX_POSTS', 100],
    ['SEARCH_MAX_USERS', 10],
    ['HOME_FEED_PAGE_SIZE', 100],
    ['PROFILE_POSTS_PAGE_SIZE', 50],
    ['RELATED_HASHTAGS_USED', 10],
    ['RELATED_KEYWORDS_USED', 20],
    ['RELATED_MAX_POSTS', 100],
    ['HOME_SKELETON_CARDS', 6],
    ['NAV_ACTIVE_COLOR', '#FF0048'],
    ['NAV_INACTIVE_COLOR', '#F9F9F9'],
  ])('%s = %s', (name, value) => {
    expect(limits[name]).toBe(value);
  });

  it('the username pattern allows exactly a-z, 0-9, _ and .', () => {
    for (const ok of ['abc', 'a_b', 'a.b', '0123456789', 'abcdefghijklmnopqrstuvwxyz_.']) {
      expect(limits.USERNAME_PATTERN.test(ok)).toBe(true);
    }
    for (const bad of ['', 'Abc', 'a-b', 'a b', 'a@b', 'é', 'a\n', '\nb', 'ab\u0131']) {
      expect(limits.USERNAME_PATTERN.test(bad)).toBe(false);
    }
  });

  it('the hard cap on text fields is well above every rule it protects', () => {
    expect(limits.TEXT_FIELD_HARD_MAX).toBeGreaterThanOrEqual(limits.EMAIL_MAX_LENGTH);
    expect(limits.TEXT_FIELD_HARD_MAX).toBeGreaterThan(limits.DESCRIPTION_MAX_LENGTH);
    expect(limits.TEXT_FIELD_HARD_MAX).toBeGreaterThan(limits.PASSWORD_MAX_LENGTH);
  });
});

/** Section 8's catalogue and section 5's messages, copied verbatim from the spec. */
const SPEC_TEXT: Partial<Record<ErrorCode, string>> = {
  // Product error codes: posts
  INVALID_FILETYPE: 'Invalid filetype',
  IMAGE_PROCESSING_FAILED: 'Image processing and compression failed',
  DESCRIPTION_TOO_LONG: 'Description is too long',
  URL_TOO_LONG: 'URL is too long',
  IMAGE_TOO_LARGE: 'Image is too large',
  POST_NOT_FOUND: 'Post does not exists',
  // Product error codes: users
  USER_DATA_NOT_FOUND: 'User data not found',
  ICON_INVALID_FILETYPE: 'Profile icon is in an invalid filetype',
  ICON_TOO_LARGE: 'Profile icon is too large!',
  ICON_PROCESSING_FAILED: 'Image processing failed!',
  // Registration
  EMAIL_TAKEN: 'Email already registered.',
  SIGN_UP_FAILED: 'Failed to create new user',
  // Sign-in
  INCORRECT_LOGIN: 'Incorrect log in details.',
  USERNAME_NOT_REGISTERED: 'Username not registered.',
  SIGN_IN_FAILED: 'Failed to sign in.',
  // Section 5
  FILL_IN_ALL_FIELDS: 'Fill in all the fields.',
  USERNAME_SPACES: 'Remove spaces or tabs in your username.',
  USERNAME_LENGTH: 'Username must be 3-20 characters long.',
  USERNAME_INVALID: 'Invalid username.',
  USERNAME_TAKEN: 'Username has already been registered.',
  EMAIL_INVALID: 'Invalid email address.',
  PASSWORD_SPACES: 'Remove spaces or tabs in your password.',
  PASSWORD_LENGTH: 'Password must be 8-32 characters long.',
};

describe('ERRORS (section 8 catalogue)', () => {
  it.each(Object.entries(SPEC_TEXT))('%s is the spec text %j', (code, text) => {
    expect(ERRORS[code as ErrorCode]).toBe(text);
  });

  it('holds every spec message, whatever its code', () => {
    const values = Object.values(ERRORS) as string[];
    for (const text of Object.values(SPEC_TEXT)) expect(values).toContain(text);
  });

  it('has the codes the API uses for its own failures, with non-empty text', () => {
    for (const code of ['GENERIC', 'NOT_SIGNED_IN', 'FORBIDDEN', 'NOT_FOUND', 'BAD_REQUEST', 'PAYLOAD_TOO_LARGE', 'RATE_LIMITED']) {
      expect(isErrorCode(code)).toBe(true);
      expect(ERRORS[code as ErrorCode].length).toBeGreaterThan(0);
    }
  });

  it('no two codes share a text (so a message identifies its code)', () => {
    const values = Object.values(ERRORS);
    expect(new Set(values).size).toBe(values.length);
  });

  it('codes are stable SCREAMING_SNAKE_CASE identifiers', () => {
    for (const code of Object.keys(ERRORS)) expect(code).toMatch(/^[A-Z][A-Z_]*[A-Z]$/);
  });
});

describe('errorCodeOf / isErrorCode', () => {
  it('round-trips every code through its text', () => {
    for (const [code, text] of Object.entries(ERRORS)) {
      expect(errorCodeOf(text)).toBe(code);
      expect(ERRORS[errorCodeOf(text)]).toBe(text);
    }
  });

  it('maps an unknown message to BAD_REQUEST', () => {
    expect(errorCodeOf('no such message')).toBe('BAD_REQUEST');
    expect(errorCodeOf('')).toBe('BAD_REQUEST');
    // Exact match only: case and punctuation matter.
    expect(errorCodeOf('invalid username.')).toBe('BAD_REQUEST');
    expect(errorCodeOf('Invalid username')).toBe('BAD_REQUEST');
  });

  it('isErrorCode accepts exactly the catalogue keys', () => {
    expect(isErrorCode('USERNAME_TAKEN')).toBe(true);
    expect(isErrorCode('username_taken')).toBe(false);
    expect(isErrorCode('Invalid username.')).toBe(false);
    expect(isErrorCode('toString')).toBe(false);
    expect(isErrorCode('__proto__')).toBe(false);
    expect(isErrorCode(undefined)).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
});

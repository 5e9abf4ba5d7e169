import { describe, expect, it } from 'vitest';
import { ERRORS } from '../../src/shared/errors.js';
import { BOARD_DESCRIPTION_MAX_LENGTH, BOARD_NAME_MAX_LENGTH } from '../../src/shared/limits.js';
import { boardSlug, normalizeBoardName, validateBoardDescription, validateBoardName } from '../../src/shared/validation/board.js';

/** What the Save picker's and the board page's forms check at once, and the server again (issue 18). */
describe('board names', () => {
  const problem = (name: string) => validateBoardName(normalizeBoardName(name));

  it('are stored without surrounding space, inner runs of whitespace made one, control characters dropped', () => {
    expect(normalizeBoardName('  Dorm \t ideas\n')).toBe('Dorm ideas');
    expect(normalizeBoardName('\u0007Bell\u001b')).toBe('Bell');
    // A zero-width joiner holds an emoji sequence together: kept.
    expect(normalizeBoardName('👨‍👩‍👧')).toBe('👨‍👩‍👧');
  });

  it('need something visible: empty, spaces or invisible characters alone are "Give your board a name."', () => {
    for (const name of ['', '   ', '\t\n', '\u200B', '\u2060\u00A0', '\u0007'])
      expect(problem(name), JSON.stringify(name)).toBe('BOARD_NAME_REQUIRED');
    expect(ERRORS.BOARD_NAME_REQUIRED).toBe('Give your board a name.');
  });

  it('are at most 50 characters as people count them (an emoji is one)', () => {
    expect(problem('a'.repeat(BOARD_NAME_MAX_LENGTH))).toBeNull();
    expect(problem('a'.repeat(BOARD_NAME_MAX_LENGTH + 1))).toBe('BOARD_NAME_TOO_LONG');
    expect(problem('🏠'.repeat(BOARD_NAME_MAX_LENGTH))).toBeNull();
    expect(ERRORS.BOARD_NAME_TOO_LONG).toBe('Board name must be at most 50 characters.');
  });
});

describe('board descriptions', () => {
  it('may be empty, and are at most 200 characters', () => {
    expect(validateBoardDescription('')).toBeNull();
    expect(validateBoardDescription('é'.repeat(BOARD_DESCRIPTION_MAX_LENGTH))).toBeNull();
    expect(validateBoardDescription('é'.repeat(BOARD_DESCRIPTION_MAX_LENGTH + 1))).toBe('BOARD_DESCRIPTION_TOO_LONG');
  });
});

describe('board slugs', () => {
  it('are the lower-case letters and digits of the name, words joined by "-"', () => {
    expect(boardSlug('Dorm Room Ideas!')).toBe('dorm-room-ideas');
    expect(boardSlug('  --Study   spots 2026-- ')).toBe('study-spots-2026');
    expect(boardSlug('Café Crème')).toBe('café-crème');
    expect(boardSlug('東京 trip')).toBe('東京-trip');
  });

  it('are "board" for a name without letters or digits, and at most 60 characters', () => {
    expect(boardSlug('🏠🌱')).toBe('board');
    expect(boardSlug('!!!')).toBe('board');
    const long = boardSlug(`${'word '.repeat(20)}`);
    expect(Array.from(long).length).toBeLessThanOrEqual(60);
    expect(long.endsWith('-')).toBe(false);
  });
});

import type { ErrorCode } from '../errors.js';
import { BOARD_DESCRIPTION_MAX_LENGTH, BOARD_NAME_MAX_LENGTH } from '../limits.js';

/** Characters as people count them (code points), as PostgreSQL's char_length does. */
const length = (text: string) => Array.from(text).length;

/**
 * A board's name as stored: control characters (a pasted bell or escape) dropped, surrounding
 * spaces dropped, inner runs of whitespace made one space.
 */
export function normalizeBoardName(name: string): string {
  return name
    .replace(/[^\P{Cc}\s]/gu, '')
    .trim()
    .replace(/\s+/g, ' ');
}

/** Nothing anyone would see: spaces, format characters (a lone zero-width space) and the like. */
const INVISIBLE = /^[\p{C}\p{Z}\p{Default_Ignorable_Code_Point}]*$/u;

/** The problem with a (normalized) board name, or null: 1 to 50 characters, some of them visible. */
export function validateBoardName(name: string): ErrorCode | null {
  if (INVISIBLE.test(name)) return 'BOARD_NAME_REQUIRED';
  return length(name) > BOARD_NAME_MAX_LENGTH ? 'BOARD_NAME_TOO_LONG' : null;
}

/** The problem with a board's description, or null: at most 200 characters, empty allowed. */
export function validateBoardDescription(description: string): ErrorCode | null {
  return length(description) > BOARD_DESCRIPTION_MAX_LENGTH ? 'BOARD_DESCRIPTION_TOO_LONG' : null;
}

/**
 * The board's address part from its name: lower-case letters and digits of any script, words
 * joined by '-' ("Dorm Room Ideas!" → "dorm-room-ideas"). A name with no letters or digits
 * (emoji only) gets "board". The server adds a tail of the board's own (server/boards/board-slug.ts).
 */
export function boardSlug(name: string): string {
  const slug = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return Array.from(slug).slice(0, 60).join('').replace(/-+$/, '') || 'board';
}

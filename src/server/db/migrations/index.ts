import accounts from './0001-accounts.js';

/**
 * Every schema change, in order. Append only: a released migration is never edited, because
 * databases that already ran it would silently differ from new ones.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  { version: 1, name: 'accounts', sql: accounts },
];

import accounts from './0001-accounts.js';
import postsAndFollows from './0002-posts-and-follows.js';
import search from './0003-search.js';
import ginFastupdateOff from './0004-gin-fastupdate-off.js';
import followCounts from './0005-follow-counts.js';
import pendingFiles from './0006-pending-files.js';
import normalizedEmails from './0007-normalized-emails.js';
import boundedSearchIndex from './0008-bounded-search-index.js';
import lastChange from './0009-last-change.js';
import accountManagement from './0010-account-management.js';
import communitySafety from './0011-community-safety.js';
import boards from './0012-boards.js';
import sessionRule from './0013-session-rule.js';
import lookalikesAndKeyedHolds from './0014-lookalikes-and-keyed-holds.js';
import postIdempotency from './0015-post-idempotency.js';
import emailVerification from './0016-email-verification.js';
import singleSignOn from './0017-single-sign-on.js';
import graduationAndNameClaims from './0018-graduation-and-name-claims.js';
import notifications from './0019-notifications.js';

/**
 * Every schema change, in order. Append only: a released migration is never edited, because
 * databases that already ran it would silently differ from new ones.
 */
export const MIGRATIONS: ReadonlyArray<{ version: number; name: string; sql: string }> = [
  { version: 1, name: 'accounts', sql: accounts },
  { version: 2, name: 'posts-and-follows', sql: postsAndFollows },
  { version: 3, name: 'search', sql: search },
  { version: 4, name: 'gin-fastupdate-off', sql: ginFastupdateOff },
  { version: 5, name: 'follow-counts', sql: followCounts },
  { version: 6, name: 'pending-files', sql: pendingFiles },
  { version: 7, name: 'normalized-emails', sql: normalizedEmails },
  { version: 8, name: 'bounded-search-index', sql: boundedSearchIndex },
  { version: 9, name: 'last-change', sql: lastChange },
  { version: 10, name: 'account-management', sql: accountManagement },
  { version: 11, name: 'community-safety', sql: communitySafety },
  { version: 12, name: 'boards', sql: boards },
  { version: 13, name: 'session-rule', sql: sessionRule },
  { version: 14, name: 'lookalikes-and-keyed-holds', sql: lookalikesAndKeyedHolds },
  { version: 15, name: 'post-idempotency', sql: postIdempotency },
  { version: 16, name: 'email-verification', sql: emailVerification },
  { version: 17, name: 'single-sign-on', sql: singleSignOn },
  { version: 18, name: 'graduation-and-name-claims', sql: graduationAndNameClaims },
  { version: 19, name: 'notifications', sql: notifications },
];

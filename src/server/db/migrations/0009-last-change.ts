/**
 * Each user's latest change (a post, a follow, a profile edit) as the change feed named it, and
 * when: a process that has not yet heard of it reads around its cache for that user, so their
 * next read shows it on any process (db/change-feed.ts). Written by the feed, nothing else.
 */
export default /* sql */ `
ALTER TABLE users ADD COLUMN last_change_id text, ADD COLUMN last_change_at timestamptz;
`;

/**
 * The session rule (issue 26): a session is live only while its account's session epoch is the
 * one it was made in. Every credential or status change (password change, reset, signing out
 * everywhere, suspension) moves users.session_epoch on, in the transaction that makes it, so a
 * session of the old epoch is refused at its next use on every process, and a sign-in that read
 * the account before the change cannot insert a session after it (the insert is conditional on
 * the epoch it read, on a locked row: auth.queries.ts insertSessionIfCurrent).
 */
export default /* sql */ `
ALTER TABLE users ADD COLUMN session_epoch integer NOT NULL DEFAULT 0;
ALTER TABLE sessions ADD COLUMN epoch integer NOT NULL DEFAULT 0;
`;

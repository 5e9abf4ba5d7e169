/**
 * Look-alikes and held names (issue 26):
 * - users.email_skeleton and boards.name_skeleton: the look-alike key of the address and of the
 *   board's name (lookalikes/skeleton.ts), unique (per owner for boards), so a Cyrillic а or a
 *   zero-width space makes no second 'alice@example.test' or 'Books', even when two requests
 *   race. Computed by the app, not here: rows from before are null (never equal to anything)
 *   until the server fills them in at start (lookalikes/fill-keys.ts). Two existing rows with one
 *   key keep working: the first gets the key, the other stays null.
 * - released_usernames.email_hmac: the address of a held name's account, keyed with the
 *   server's secret (server-secret.ts) instead of a plain SHA-256 that anyone could test a
 *   guessed address against. The old hashes are emptied: those names stay held for their 30
 *   days. email_hash itself stays, empty, for processes of the previous version during a rolling
 *   upgrade: they give a name back to the address whose SHA-256 it holds, and '' is none.
 */
export default /* sql */ `
ALTER TABLE users ADD COLUMN email_skeleton text;
CREATE UNIQUE INDEX users_email_skeleton_idx ON users (email_skeleton);

ALTER TABLE boards ADD COLUMN name_skeleton text;
CREATE UNIQUE INDEX boards_owner_name_skeleton_idx ON boards (owner_id, name_skeleton);

ALTER TABLE released_usernames ADD COLUMN email_hmac text;
ALTER TABLE released_usernames ALTER COLUMN email_hash SET DEFAULT '';
UPDATE released_usernames SET email_hash = '';
`;

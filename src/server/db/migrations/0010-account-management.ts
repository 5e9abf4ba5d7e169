/**
 * Accounts people can manage (issue 16):
 * - sessions get a public id (the token's hash must never leave the server: it is the key a
 *   request is looked up by), the browser that signed in, and when it was last used;
 * - password_resets: at most one live reset link per account (a new link replaces the old one),
 *   stored as the token's hash;
 * - released_usernames: the names of deleted accounts, held for a while so nobody can pose as
 *   someone who just left (only the same e-mail address may take the name back meanwhile).
 */
export default /* sql */ `
ALTER TABLE sessions
  ADD COLUMN id text,
  ADD COLUMN user_agent text NOT NULL DEFAULT '' CHECK (char_length(user_agent) <= 512),
  ADD COLUMN last_seen_at timestamptz;
UPDATE sessions SET id = md5(token_hash || random()::text), last_seen_at = created_at;
-- The app names new sessions itself (ids.ts); the default serves rows written by hand.
ALTER TABLE sessions ALTER COLUMN id SET NOT NULL, ALTER COLUMN id SET DEFAULT md5(random()::text || clock_timestamp()::text),
  ALTER COLUMN last_seen_at SET NOT NULL, ALTER COLUMN last_seen_at SET DEFAULT now();
CREATE UNIQUE INDEX sessions_id_idx ON sessions (id);

CREATE TABLE password_resets (
  user_id    text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  token_hash text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now(),
  expires_at timestamptz NOT NULL
);

CREATE TABLE released_usernames (
  username    text PRIMARY KEY,
  email_hash  text NOT NULL,
  released_at timestamptz NOT NULL DEFAULT now()
);
`;

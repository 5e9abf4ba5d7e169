/**
 * Community safety (issue 17):
 * - users get a role (member, moderator, admin) and a suspension: until a time, or for good
 *   (suspended_until = PERMANENT, see shared/moderation.ts), cleared early by an admin;
 * - blocks: who blocked whom (either way hides each from the other);
 * - reports: one open report per reporter and target (a post, or a user's profile);
 * - moderation_log: every moderator action, kept when the people in it are gone (names copied);
 * - invites: sign-up codes for REGISTRATION=invite, stored as their SHA-256.
 */
export default /* sql */ `
ALTER TABLE users
  ADD COLUMN role text NOT NULL DEFAULT 'member' CHECK (role IN ('member', 'moderator', 'admin')),
  ADD COLUMN suspended_until timestamptz;
CREATE INDEX users_suspended_until_idx ON users (suspended_until) WHERE suspended_until IS NOT NULL;

CREATE TABLE blocks (
  blocker_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  blocked_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (blocker_id, blocked_id),
  CHECK (blocker_id <> blocked_id)
);
CREATE INDEX blocks_blocked_id_idx ON blocks (blocked_id);

CREATE TABLE reports (
  id          text PRIMARY KEY,
  reporter_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- The user reported, or the author of the post reported.
  target_user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  -- Null for a report of a profile.
  target_post_id text REFERENCES posts (id) ON DELETE CASCADE,
  reason      text NOT NULL CHECK (reason IN ('spam', 'harassment', 'nudity', 'violence', 'self-harm', 'other')),
  details     text NOT NULL DEFAULT '' CHECK (char_length(details) <= 500),
  status      text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'actioned', 'dismissed')),
  created_at  timestamptz NOT NULL DEFAULT now(),
  closed_at   timestamptz,
  closed_by   text REFERENCES users (id) ON DELETE SET NULL
);
-- One open report per reporter and target.
CREATE UNIQUE INDEX reports_one_open_idx ON reports (reporter_id, target_user_id, coalesce(target_post_id, ''))
  WHERE status = 'open';
CREATE INDEX reports_open_idx ON reports (created_at DESC) WHERE status = 'open';

CREATE TABLE moderation_log (
  id              text PRIMARY KEY,
  actor_id        text REFERENCES users (id) ON DELETE SET NULL,
  actor_username  text NOT NULL,
  action          text NOT NULL,
  target_user_id  text REFERENCES users (id) ON DELETE SET NULL,
  target_username text NOT NULL DEFAULT '',
  target_post_id  text,
  note            text NOT NULL DEFAULT '' CHECK (char_length(note) <= 500),
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX moderation_log_created_at_idx ON moderation_log (created_at DESC);

CREATE TABLE invites (
  code_hash  text PRIMARY KEY,
  created_by text REFERENCES users (id) ON DELETE SET NULL,
  uses_left  integer NOT NULL CHECK (uses_left >= 0),
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now()
);
`;

/**
 * Posts with their derived search data, and the follow graph (a directed edge per pair).
 * GIN indexes serve "any of these keywords / hashtags" (the && operator) for search and
 * related posts; the (created_at, id) indexes serve keyset-paginated feeds.
 */
export default /* sql */ `
CREATE TABLE posts (
  id          text PRIMARY KEY,
  user_id     text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  description text NOT NULL DEFAULT '' CHECK (char_length(description) <= 200),
  link        text NOT NULL DEFAULT '' CHECK (char_length(link) <= 200),
  keywords    text[] NOT NULL DEFAULT '{}',
  hashtags    text[] NOT NULL DEFAULT '{}',
  image_key   text NOT NULL,
  width       integer NOT NULL CHECK (width > 0),
  height      integer NOT NULL CHECK (height > 0),
  placeholder text NOT NULL DEFAULT '',
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX posts_feed_idx ON posts (created_at DESC, id DESC);
CREATE INDEX posts_user_idx ON posts (user_id, created_at DESC, id DESC);
CREATE INDEX posts_keywords_idx ON posts USING gin (keywords);
CREATE INDEX posts_hashtags_idx ON posts USING gin (hashtags);

CREATE TABLE follows (
  follower_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  target_id   text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (follower_id, target_id),
  CHECK (follower_id <> target_id)
);
CREATE INDEX follows_target_idx ON follows (target_id, follower_id);
`;

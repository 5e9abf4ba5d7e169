/**
 * Issue 26 point 17: a double-submitted upload form made two posts. The form sends a key
 * (shared/validation/post.ts); the first post made with it is the answer to the same key from
 * the same account for ten minutes (POST_IDEMPOTENCY_WINDOW_MS), in any process.
 * - One row per (user, key), written in the post's own transaction: two submissions at once
 *   meet on the primary key, and the second's transaction (its post and files) is undone.
 * - A key older than the window is taken over by the next post; expired rows are swept after
 *   each post (created_at index). A deleted post or account takes its rows along.
 */
export default /* sql */ `
CREATE TABLE post_idempotency (
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  key        text NOT NULL CHECK (char_length(key) BETWEEN 1 AND 64),
  post_id    text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (user_id, key)
);
CREATE INDEX post_idempotency_created_idx ON post_idempotency (created_at);
CREATE INDEX post_idempotency_post_idx ON post_idempotency (post_id);
`;

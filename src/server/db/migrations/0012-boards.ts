/**
 * Boards (issue 18): a user's named collections of posts, anyone's posts, secret or not, that
 * invited collaborators may save to as well.
 * - boards.post_count and last_saved_at are kept by triggers on board_posts, like the follow
 *   counts (migration 5). The CHECK on post_count is the backstop of BOARD_MAX_POSTS
 *   (shared/limits.ts): two saves racing for the last place cannot both win.
 * - A chosen cover must be on the board: the foreign key into board_posts clears it (only it)
 *   when that post leaves the board, so the cover falls back to the newest saved post.
 * - A deleted post leaves every board in the same statement (ON DELETE CASCADE).
 * - board_members: invited by the owner (joined_at null) or joined.
 */
export default /* sql */ `
CREATE TABLE boards (
  id            text PRIMARY KEY,
  owner_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name          text NOT NULL CHECK (char_length(name) BETWEEN 1 AND 50),
  slug          text NOT NULL CHECK (char_length(slug) BETWEEN 1 AND 80),
  description   text NOT NULL DEFAULT '' CHECK (char_length(description) <= 200),
  secret        boolean NOT NULL DEFAULT false,
  cover_post_id text,
  post_count    integer NOT NULL DEFAULT 0 CHECK (post_count BETWEEN 0 AND 10000),
  created_at    timestamptz NOT NULL DEFAULT now(),
  last_saved_at timestamptz NOT NULL DEFAULT now(),
  UNIQUE (owner_id, slug)
);
CREATE UNIQUE INDEX boards_owner_name_idx ON boards (owner_id, lower(name));
CREATE INDEX boards_owner_recent_idx ON boards (owner_id, last_saved_at DESC, id DESC);

CREATE TABLE board_posts (
  board_id text NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
  post_id  text NOT NULL REFERENCES posts (id) ON DELETE CASCADE,
  saved_by text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  saved_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (board_id, post_id)
);
CREATE INDEX board_posts_board_recent_idx ON board_posts (board_id, saved_at DESC, post_id DESC);
CREATE INDEX board_posts_post_idx ON board_posts (post_id);
CREATE INDEX board_posts_saver_idx ON board_posts (saved_by, board_id, saved_at DESC);

ALTER TABLE boards ADD CONSTRAINT boards_cover_on_board FOREIGN KEY (id, cover_post_id)
  REFERENCES board_posts (board_id, post_id) ON DELETE SET NULL (cover_post_id);

CREATE TABLE board_members (
  board_id   text NOT NULL REFERENCES boards (id) ON DELETE CASCADE,
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  invited_at timestamptz NOT NULL DEFAULT now(),
  -- Null while only invited.
  joined_at  timestamptz,
  PRIMARY KEY (board_id, user_id)
);
CREATE INDEX board_members_user_idx ON board_members (user_id, board_id);

-- Statement-level, like the follow counts: a bulk insert or a cascading delete (a post saved
-- to many boards) updates each board once, with its own rows' count and newest save, locking
-- the boards in id order.
CREATE FUNCTION board_posts_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM boards WHERE id IN (SELECT board_id FROM inserted) ORDER BY id FOR NO KEY UPDATE;
  UPDATE boards SET post_count = post_count + d.n, last_saved_at = greatest(last_saved_at, d.newest)
  FROM (SELECT board_id, count(*)::int AS n, max(saved_at) AS newest FROM inserted GROUP BY board_id) AS d
  WHERE boards.id = d.board_id;
  RETURN NULL;
END;
$$;

CREATE FUNCTION board_posts_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM boards WHERE id IN (SELECT board_id FROM deleted) ORDER BY id FOR NO KEY UPDATE;
  UPDATE boards SET post_count = post_count - d.n
  FROM (SELECT board_id, count(*)::int AS n FROM deleted GROUP BY board_id) AS d
  WHERE boards.id = d.board_id;
  RETURN NULL;
END;
$$;

CREATE TRIGGER board_posts_count_insert AFTER INSERT ON board_posts
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION board_posts_count_inserted();
CREATE TRIGGER board_posts_count_delete AFTER DELETE ON board_posts
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION board_posts_count_deleted();
`;

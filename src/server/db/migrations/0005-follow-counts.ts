/**
 * Follower and following counts kept on the user row. Counting the edges on every profile,
 * post detail and follow list read cost 30 ms for an account with 5,000 followers on PGlite;
 * a counter costs one row update per follow instead.
 *
 * The counters are kept by statement-level triggers with transition tables, so every writer
 * (the API, the seeder's bulk inserts, cascading deletes) keeps them right, and a bulk insert
 * updates each user once. The rows are locked in id order first: two people following each
 * other at the same moment would otherwise lock the same two rows in opposite orders. NO KEY
 * UPDATE is the lock the UPDATE takes anyway; FOR UPDATE would also conflict with the KEY SHARE
 * locks that the foreign-key checks of other follows hold on the same users.
 */
export default /* sql */ `
ALTER TABLE users
  ADD COLUMN follower_count  integer NOT NULL DEFAULT 0 CHECK (follower_count >= 0),
  ADD COLUMN following_count integer NOT NULL DEFAULT 0 CHECK (following_count >= 0);

UPDATE users SET follower_count = c.n
FROM (SELECT target_id, count(*)::int AS n FROM follows GROUP BY target_id) AS c
WHERE users.id = c.target_id;

UPDATE users SET following_count = c.n
FROM (SELECT follower_id, count(*)::int AS n FROM follows GROUP BY follower_id) AS c
WHERE users.id = c.follower_id;

CREATE FUNCTION follows_apply_counts(sign integer, changed_follower_ids text[], changed_target_ids text[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM 1 FROM users
  WHERE id = ANY (changed_follower_ids) OR id = ANY (changed_target_ids)
  ORDER BY id
  FOR NO KEY UPDATE;
  UPDATE users SET
    follower_count = follower_count + sign * d.followers,
    following_count = following_count + sign * d.following
  FROM (
    SELECT id, sum(followers)::int AS followers, sum(following)::int AS following
    FROM (
      SELECT unnest(changed_target_ids) AS id, 1 AS followers, 0 AS following
      UNION ALL
      SELECT unnest(changed_follower_ids), 0, 1
    ) AS edges
    GROUP BY id
  ) AS d
  WHERE users.id = d.id;
END;
$$;

CREATE FUNCTION follows_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM follows_apply_counts(1,
    ARRAY(SELECT follower_id FROM inserted), ARRAY(SELECT target_id FROM inserted));
  RETURN NULL;
END;
$$;

CREATE FUNCTION follows_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM follows_apply_counts(-1,
    ARRAY(SELECT follower_id FROM deleted), ARRAY(SELECT target_id FROM deleted));
  RETURN NULL;
END;
$$;

CREATE TRIGGER follows_counts_insert AFTER INSERT ON follows
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION follows_count_inserted();
CREATE TRIGGER follows_counts_delete AFTER DELETE ON follows
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION follows_count_deleted();
`;

/**
 * Issue 30: notifications and Web Push.
 * - notifications: one row per event (grouping happens on read, per group_key and UTC day). An
 *   actor's, a post's or a board's deletion takes its rows with it. `read` is per row.
 * - users.unread_notifications: kept by statement-level triggers on notifications (as the follow
 *   counts are, migration 5), so the bell on every page reads one row, never counts.
 * - users.notifications_off / push_on: the topics of Settings → Notifications turned off in the
 *   app / turned on as a push (shared/api/activity.ts NotificationTopic).
 * - push_subscriptions: one per device (its endpoint's SHA-256 is the id), with the VAPID key it
 *   was made for; push_deliveries: the queue of pushes to send, with their payload.
 * - server_keys: the VAPID key pair made at the first start (unless given in the environment).
 */
export default /* sql */ `
CREATE TABLE notifications (
  id         text PRIMARY KEY,
  user_id    text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind       text NOT NULL CHECK (char_length(kind) <= 32),
  actor_id   text REFERENCES users (id) ON DELETE CASCADE,
  post_id    text REFERENCES posts (id) ON DELETE CASCADE,
  board_id   text REFERENCES boards (id) ON DELETE CASCADE,
  group_key  text NOT NULL CHECK (char_length(group_key) <= 100),
  day        date NOT NULL DEFAULT ((now() AT TIME ZONE 'UTC')::date),
  detail     text CHECK (char_length(detail) <= 2000),
  until      timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  read       boolean NOT NULL DEFAULT false
);
CREATE INDEX notifications_page_idx ON notifications (user_id, day DESC, group_key);
CREATE INDEX notifications_unread_idx ON notifications (user_id, actor_id) WHERE NOT read;
CREATE INDEX notifications_created_idx ON notifications (created_at);
CREATE INDEX notifications_actor_idx ON notifications (actor_id) WHERE actor_id IS NOT NULL;
CREATE INDEX notifications_post_idx ON notifications (post_id) WHERE post_id IS NOT NULL;
CREATE INDEX notifications_board_idx ON notifications (board_id) WHERE board_id IS NOT NULL;

ALTER TABLE users
  ADD COLUMN unread_notifications integer NOT NULL DEFAULT 0 CHECK (unread_notifications >= 0),
  ADD COLUMN notifications_off text[] NOT NULL DEFAULT '{}',
  ADD COLUMN push_on text[] NOT NULL DEFAULT '{}';

CREATE FUNCTION notifications_apply_unread(sign integer, changed_user_ids text[])
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  -- In id order, as the follow counts lock theirs: two transactions never wait crosswise.
  PERFORM 1 FROM users WHERE id = ANY (changed_user_ids) ORDER BY id FOR NO KEY UPDATE;
  UPDATE users SET unread_notifications = unread_notifications + sign * d.n
  FROM (SELECT id, count(*)::int AS n FROM unnest(changed_user_ids) AS id GROUP BY id) AS d
  WHERE users.id = d.id;
END;
$$;

CREATE FUNCTION notifications_count_inserted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notifications_apply_unread(1, ARRAY(SELECT user_id FROM inserted WHERE NOT read ORDER BY user_id));
  RETURN NULL;
END;
$$;

CREATE FUNCTION notifications_count_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notifications_apply_unread(-1, ARRAY(SELECT user_id FROM deleted WHERE NOT read ORDER BY user_id));
  RETURN NULL;
END;
$$;

CREATE FUNCTION notifications_count_updated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM notifications_apply_unread(-1,
    ARRAY(SELECT o.user_id FROM before_update o JOIN after_update n USING (id) WHERE NOT o.read AND n.read ORDER BY o.user_id));
  PERFORM notifications_apply_unread(1,
    ARRAY(SELECT o.user_id FROM before_update o JOIN after_update n USING (id) WHERE o.read AND NOT n.read ORDER BY o.user_id));
  RETURN NULL;
END;
$$;

CREATE TRIGGER notifications_unread_insert AFTER INSERT ON notifications
  REFERENCING NEW TABLE AS inserted FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_inserted();
CREATE TRIGGER notifications_unread_delete AFTER DELETE ON notifications
  REFERENCING OLD TABLE AS deleted FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_deleted();
CREATE TRIGGER notifications_unread_update AFTER UPDATE ON notifications
  REFERENCING OLD TABLE AS before_update NEW TABLE AS after_update FOR EACH STATEMENT EXECUTE FUNCTION notifications_count_updated();

CREATE TABLE push_subscriptions (
  id           text PRIMARY KEY,
  user_id      text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  endpoint     text NOT NULL CHECK (char_length(endpoint) <= 1000),
  p256dh       text NOT NULL CHECK (char_length(p256dh) <= 200),
  auth         text NOT NULL CHECK (char_length(auth) <= 100),
  vapid_key    text NOT NULL,
  label        text NOT NULL DEFAULT '' CHECK (char_length(label) <= 100),
  created_at   timestamptz NOT NULL DEFAULT now(),
  last_sent_at timestamptz
);
CREATE INDEX push_subscriptions_user_idx ON push_subscriptions (user_id);

CREATE TABLE push_deliveries (
  id              text PRIMARY KEY,
  subscription_id text NOT NULL REFERENCES push_subscriptions (id) ON DELETE CASCADE,
  actor_id        text REFERENCES users (id) ON DELETE CASCADE,
  payload         text NOT NULL CHECK (char_length(payload) <= 3000),
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX push_deliveries_due_idx ON push_deliveries (next_attempt_at);
CREATE INDEX push_deliveries_subscription_idx ON push_deliveries (subscription_id);
CREATE INDEX push_deliveries_actor_idx ON push_deliveries (actor_id) WHERE actor_id IS NOT NULL;

CREATE TABLE server_keys (
  name  text PRIMARY KEY,
  value text NOT NULL
);
`;

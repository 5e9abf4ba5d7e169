/**
 * Issue 29 point 2: single sign-on with the university's OpenID provider.
 * - users.has_password: false for an account made through single sign-on, whose password hash is
 *   of random bytes nobody knows (so a password sign-in costs what any other does, and fails).
 * - sso_identities: an account's link to the provider's account, by the provider's `sub` (never
 *   by e-mail alone); one per provider and account.
 * - sso_attempts: a sign-in or link begun here and not yet back from the provider, for 10
 *   minutes: its PKCE verifier and nonce, found by the hash of its state (held by the browser in
 *   a cookie). Used once.
 * - sso_signups: a first sign-in waiting for its username, for 30 minutes, found by the hash of
 *   a token held in a cookie; the address is the provider's.
 */
export default /* sql */ `
ALTER TABLE users ADD COLUMN has_password boolean NOT NULL DEFAULT true;

CREATE TABLE sso_identities (
  issuer          text NOT NULL,
  subject         text NOT NULL CHECK (char_length(subject) <= 255),
  user_id         text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  email           text CHECK (char_length(email) <= 254),
  created_at      timestamptz NOT NULL DEFAULT now(),
  last_sign_in_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (issuer, subject),
  UNIQUE (user_id, issuer)
);

CREATE TABLE sso_attempts (
  state_hash    text PRIMARY KEY,
  code_verifier text NOT NULL,
  nonce         text NOT NULL,
  purpose       text NOT NULL CHECK (purpose IN ('sign-in', 'link')),
  user_id       text REFERENCES users (id) ON DELETE CASCADE,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX sso_attempts_expires_idx ON sso_attempts (expires_at);

CREATE TABLE sso_signups (
  token_hash         text PRIMARY KEY,
  issuer             text NOT NULL,
  subject            text NOT NULL,
  email              text NOT NULL CHECK (char_length(email) <= 254),
  email_verified     boolean NOT NULL,
  suggested_username text NOT NULL DEFAULT '',
  expires_at         timestamptz NOT NULL
);
CREATE INDEX sso_signups_expires_idx ON sso_signups (expires_at);
`;

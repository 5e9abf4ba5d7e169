/**
 * Issue 29 point 1: verified addresses.
 * - users.email_verified_at: when the account's address (users.email) was last proved, by a
 *   mailed link or code, or by an admin; null while it has not been.
 * - users.verify_email: the account was made while mail was on, so it must verify before it
 *   posts, follows, saves, reports or invites (accounts from before need to only with
 *   REQUIRE_VERIFIED_EMAIL); see auth/email-verification-rule.ts.
 * - users.pending_email: a new address asked for in Settings, not yet proved; the account keeps
 *   users.email until it is.
 * - email_verifications: the one live verification of an account (a new one replaces it), for
 *   24 hours: the link's token and the 6-digit code, each stored only as a keyed hash.
 */
export default /* sql */ `
ALTER TABLE users
  ADD COLUMN email_verified_at timestamptz,
  ADD COLUMN verify_email boolean NOT NULL DEFAULT false,
  ADD COLUMN pending_email text CHECK (char_length(pending_email) <= 254);

CREATE TABLE email_verifications (
  user_id       text PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
  email         text NOT NULL CHECK (char_length(email) <= 254),
  token_hash    text NOT NULL UNIQUE,
  code_hash     text NOT NULL,
  code_attempts integer NOT NULL DEFAULT 0,
  created_at    timestamptz NOT NULL DEFAULT now(),
  expires_at    timestamptz NOT NULL
);
CREATE INDEX email_verifications_expires_idx ON email_verifications (expires_at);
`;

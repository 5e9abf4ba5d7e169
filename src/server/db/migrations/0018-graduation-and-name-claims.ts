/**
 * Issue 29 points 1 and 3.
 * - sso_identities.refused_at: when the provider last answered a sign-in meant for this account
 *   (its login_hint) with an error instead of a code: its account may have ended. Cleared by the
 *   next sign-in through it. Nothing is ever deleted for it.
 * - sso_attempts.return_to: where a signed-in account that signs in again (to add a password,
 *   change its address or delete itself) goes back to; one of a few settings pages.
 * - username_claims: a sign-up that asked for the held name of a deleted account with that
 *   account's address, mailed to the address: the link creates the account with the name, for
 *   24 hours, once. Found by the hash of the link's token; the password is already hashed.
 */
export default /* sql */ `
ALTER TABLE sso_identities ADD COLUMN refused_at timestamptz;
ALTER TABLE sso_attempts ADD COLUMN return_to text CHECK (char_length(return_to) <= 100);

CREATE TABLE username_claims (
  token_hash    text PRIMARY KEY,
  username      text NOT NULL,
  email         text NOT NULL CHECK (char_length(email) <= 254),
  password_hash text NOT NULL,
  expires_at    timestamptz NOT NULL
);
CREATE INDEX username_claims_expires_idx ON username_claims (expires_at);
`;

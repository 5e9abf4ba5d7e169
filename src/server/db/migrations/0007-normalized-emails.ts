/**
 * E-mails are now stored NFKC-normalized (shared/validation/sign-up.ts normalizeEmail), so an
 * address typed in full-width or other compatibility forms is the address it looks like. Rows
 * stored before are normalized here, except where that would collide with an address already
 * taken: those accounts are the look-alike copies the change is about, and keep their spelling
 * (they can still sign in by username).
 */
export default /* sql */ `
WITH normalized AS (
  SELECT id, lower(normalize(email, NFKC)) AS email,
         row_number() OVER (PARTITION BY lower(normalize(email, NFKC)) ORDER BY created_at, id) AS rank
  FROM users
  WHERE email <> lower(normalize(email, NFKC))
)
UPDATE users SET email = normalized.email
FROM normalized
WHERE users.id = normalized.id
  AND normalized.rank = 1
  AND NOT EXISTS (SELECT 1 FROM users taken WHERE taken.email = normalized.email);
`;

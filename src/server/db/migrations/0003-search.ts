/**
 * People search is a username prefix match (LIKE 'abc%'). text_pattern_ops lets a B-tree serve
 * it under any collation; the plain UNIQUE index can't unless the collation is "C".
 */
export default /* sql */ `
CREATE INDEX users_username_prefix_idx ON users (username text_pattern_ops);
`;

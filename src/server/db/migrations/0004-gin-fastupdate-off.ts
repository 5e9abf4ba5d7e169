/**
 * GIN "fast update" parks new entries in a pending list that only VACUUM (or a full list)
 * merges; until then the planner prices the index as slow and searches scan the table. The
 * embedded database runs no autovacuum, so new posts go straight into the index instead.
 */
export default /* sql */ `
ALTER INDEX posts_keywords_idx SET (fastupdate = off);
ALTER INDEX posts_hashtags_idx SET (fastupdate = off);
`;

/**
 * Files that may exist in storage with no row owning them: written for a row not yet committed,
 * or left by a row just deleted. A crash in that moment would otherwise leave them behind for
 * good; the start-up and periodic sweeps delete what is recorded here (storage/tracked-files.ts).
 */
export default /* sql */ `
CREATE TABLE pending_files (
  key        text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX pending_files_created_idx ON pending_files (created_at);
`;

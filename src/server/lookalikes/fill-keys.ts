import { sql, type SQL } from 'drizzle-orm';
import type { AppDb } from '../db/database.js';
import { hasSqlState } from '../db/sql-state.js';
import { storedEmail } from '../../shared/validation/email.js';
import { lookalikeKey } from './skeleton.js';

const BATCH = 500;
/** SQLSTATE of a write that hit a unique constraint. */
const UNIQUE_VIOLATION = '23505';

interface KeyedTable {
  /** Users: the addresses are counted that the e-mail parser refuses (issue 26). */
  emails?: true;
  /** The rows still without a key, after `afterId`, in id order: their id, the text to key and the scope of uniqueness. */
  pending(afterId: string): SQL;
  /** Sets the keys of rows `v(id, key)`, each only while no other row of its scope has it. */
  fill(values: SQL): SQL;
}

/** users.email_skeleton, unique over all accounts. */
const USERS: KeyedTable = {
  emails: true,
  pending: (afterId) => sql`
    SELECT id, email AS text, '' AS scope FROM users
    WHERE email_skeleton IS NULL AND id > ${afterId} ORDER BY id LIMIT ${BATCH}`,
  fill: (values) => sql`
    UPDATE users SET email_skeleton = v.key FROM (VALUES ${values}) AS v(id, key)
    WHERE users.id = v.id AND users.email_skeleton IS NULL
      AND NOT EXISTS (SELECT 1 FROM users other WHERE other.email_skeleton = v.key)
    RETURNING users.id`,
};

/** boards.name_skeleton, unique among one owner's boards. */
const BOARDS: KeyedTable = {
  pending: (afterId) => sql`
    SELECT id, name AS text, owner_id AS scope FROM boards
    WHERE name_skeleton IS NULL AND id > ${afterId} ORDER BY id LIMIT ${BATCH}`,
  fill: (values) => sql`
    UPDATE boards SET name_skeleton = v.key FROM (VALUES ${values}) AS v(id, key)
    WHERE boards.id = v.id AND boards.name_skeleton IS NULL
      AND NOT EXISTS (SELECT 1 FROM boards other WHERE other.owner_id = boards.owner_id AND other.name_skeleton = v.key)
    RETURNING boards.id`,
};

/**
 * Gives the rows written before migration 14 (or by an older process during an upgrade) their
 * look-alike keys, at start, in batches. Two rows that already look alike keep working: the
 * first (in id order) gets the key and the other stays null, which the unique index never
 * compares; a look-alike of either is still refused, since it matches the first. A batch that
 * meets a key written meanwhile (a sign-up on another process) is redone a row at a time.
 *
 * The same pass counts the addresses among those rows that the e-mail parser refuses: every
 * address stored since goes through it, so these rows are the only ones that can be (the server
 * warns with the count; `npm run admin -- invalid-emails` lists them). No read of every row at
 * every start.
 */
export async function fillLookalikeKeys(db: AppDb): Promise<{ filled: number; refusedEmails: number }> {
  const users = await fillTable(db, USERS);
  const boards = await fillTable(db, BOARDS);
  return { filled: users.filled + boards.filled, refusedEmails: users.refused };
}

async function fillTable(db: AppDb, table: KeyedTable): Promise<{ filled: number; refused: number }> {
  let filled = 0;
  let refused = 0;
  for (let afterId = ''; ;) {
    const rows = await rowsOf<{ id: string; text: string; scope: string }>(db, table.pending(afterId));
    if (rows.length === 0) return { filled, refused };
    afterId = rows.at(-1)!.id;
    if (table.emails) refused += rows.filter((row) => !storedEmail(row.text)).length;
    // One row per key and scope: the batch's own look-alikes would fail the unique index together.
    const firsts = new Map<string, { id: string; key: string }>();
    for (const row of rows) {
      const key = lookalikeKey(row.text);
      if (!firsts.has(`${row.scope}\n${key}`)) firsts.set(`${row.scope}\n${key}`, { id: row.id, key });
    }
    const batch = [...firsts.values()];
    const done = await fill(db, table, batch);
    if (done !== undefined) filled += done;
    else for (const row of batch) filled += (await fill(db, table, [row])) ?? 0;
  }
}

/** How many of the rows got their key; undefined when one met a key written meanwhile. */
async function fill(db: AppDb, table: KeyedTable, rows: Array<{ id: string; key: string }>): Promise<number | undefined> {
  const values = sql.join(
    rows.map((row) => sql`(${row.id}, ${row.key})`),
    sql`, `,
  );
  try {
    return (await rowsOf(db, table.fill(values))).length;
  } catch (error) {
    if (hasSqlState(error, UNIQUE_VIOLATION)) return undefined;
    throw error;
  }
}

async function rowsOf<Row>(db: AppDb, query: SQL): Promise<Row[]> {
  const result: unknown = await db.execute(query);
  return (result as { rows: Row[] }).rows;
}

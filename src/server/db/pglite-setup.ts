import type { PGlite } from '@electric-sql/pglite';

/** What every open of the embedded database does before its first query, in whichever thread holds it. */
export async function prepareEmbedded(client: PGlite): Promise<void> {
  await client.waitReady;
  // Durability: on a directory PGlite uses Emscripten's NODEFS, whose every write() is a
  // synchronous fs.writeSync. With synchronous_commit on, a COMMIT returns only after its WAL
  // record was written, so it is in the operating system's hands and survives the process being
  // killed (SIGKILL, OOM): the next open replays it. PGlite's default today, pinned here because
  // with it off an acknowledged sign-up is lost at the first kill (tests/api/crash-safety.test.ts).
  // `relaxedDurability` only skips waiting for IndexedDB flushes in browsers; never set it.
  // WARNING: PGlite runs postgres with fsync off (-F) and NODEFS has no fsync, so a power loss or
  // kernel crash can still lose the last commits; use PostgreSQL where that matters.
  await client.exec('SET synchronous_commit = on');
}

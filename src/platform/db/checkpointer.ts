import { DatabaseSync } from 'node:sqlite';
import { parentPort, workerData } from 'node:worker_threads';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * The SQLite store's checkpoints, on a thread of their own (sqlite.ts starts it; docs/deploy.md
 * "SQLite"). A checkpoint copies the write-ahead log into the database file and waits for the disk
 * twice (an fsync of each). SQLite runs it in the thread whose commit took the log past 1,000 pages,
 * which for the API is the one thread that answers every request: under a stream of registrations the
 * process then waited for the disk about a sixth of the time, answering nothing. Here the disk is waited
 * for while that thread goes on writing. PASSIVE never waits for a writer or a reader; what it cannot
 * copy yet, the next round copies.
 */
const { path, everyMs, logPages } = workerData as { path: string; everyMs: number; logPages: number };
const db = new DatabaseSync(path, { timeout: 10_000 });
// The same durability as the writing connection: the log is synced before the file takes its pages.
db.exec('PRAGMA synchronous = NORMAL');
const checkpoint = db.prepare('PRAGMA wal_checkpoint(PASSIVE)');
let log = 0;
const stop = new AbortController();
parentPort!.once('message', () => stop.abort());
while (!stop.signal.aborted) {
  try {
    // Past the writing thread's threshold its own checkpoint lets the log start over, which it cannot do
    // while this one holds the checkpoint lock: a round is left out for it (under load the log then stays
    // near the threshold rather than growing past it).
    if (log >= logPages) log = 0;
    // Another process's checkpoint in progress answers busy (a row, not an error): the next round goes on.
    else log = (checkpoint.get() as { log: number }).log;
  } catch {
    // A failed round (the disk full, say) is tried again the next; the log keeps what it did not copy.
  }
  await sleep(everyMs, undefined, { signal: stop.signal }).catch(() => {});
}
db.close();

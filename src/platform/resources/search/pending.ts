import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { reindex } from './maintain.ts';
import { anyPending, dropPending, lockPending, takePending } from './repository.ts';

// Attendees' search documents are written after their write, many per transaction (docs/api/search.md).
// A registration, an import or a profile edit notes its attendees in `searchPending` in its own
// transaction (maintain.ts), so the note exists if and only if the write committed; the processes that
// run jobs then take the notes in rounds (jobs/rounds.ts, every SEARCH_PENDING_MS: not on each change, so
// that a round takes the notes of many writes) and write the documents from the attendees' rows as they
// are then. One round is one
// transaction: the documents and the notes' removal commit together, so a process that dies mid-round
// leaves the notes for the next one, and writing a document twice is harmless (it is replaced).
//
// Why not in the write's transaction like the other types: on SQLite every transaction that writes to an
// FTS5 table flushes a new index segment. For one attendee that is about 0.4 ms, half again the whole
// registration; for 500 it is about the same. Sessions, speakers and the rest stay in their write's
// transaction: organizers edit them rarely and expect to find them at once.

/** Notes per round: documents of up to this many attendees are read and written together. */
export const PENDING_PAGE = 500;

/** One round: answers how many notes it took (PENDING_PAGE: there may be more). */
export async function indexPending(db: Kysely<DB>): Promise<number> {
  if (!(await anyPending(db))) return 0;
  return db.transaction().execute(async (trx) => {
    if (!(await lockPending(trx))) return 0;
    const notes = await takePending(trx, PENDING_PAGE);
    const byEvent = new Map<number, Set<number>>();
    for (const n of notes) {
      const people = byEvent.get(n.eventID) ?? new Set<number>();
      people.add(n.personID);
      byEvent.set(n.eventID, people);
    }
    for (const [eventID, people] of byEvent) await reindex(trx, 'person', [...people], eventID);
    await dropPending(
      trx,
      notes.map((n) => n.pendingID),
    );
    return notes.length;
  });
}

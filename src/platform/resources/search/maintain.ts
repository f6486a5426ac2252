import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Change } from '../change/log.ts';
import { SEARCH_TYPES, documentsOf, eventToken, type SearchType } from './documents.ts';
import { dropCommentsOf, dropEvent, insertDocs, notePending, replaceDocs } from './repository.ts';

// Keeping the search index up to date (docs/api/search.md): ONE hook, run by the dispatcher inside every
// write's transaction with the change the write records (kernel/dispatch.ts), so a document changes if and
// only if its object's write commits, on both stores, and no operation has to remember it. From the change
// (its module, object and ids) and the answer's rows it knows which objects of which type the write may
// have made, changed or removed, reads them again and replaces their documents (none: removed). Attendees
// are the exception: the hook notes them, and their documents are written after the commit, many at a
// time (pending.ts).

/** Modules whose writes change objects of one indexed type, and the id naming such an object. */
const TYPE_OF: Readonly<Record<string, { type: SearchType; id: string }>> = {
  activity: { type: 'activity', id: 'activityID' },
  speaker: { type: 'speaker', id: 'speakerID' },
  sponsor: { type: 'sponsor', id: 'sponsorID' },
  'event.hotsite': { type: 'section', id: 'sectionID' },
  comment: { type: 'comment', id: 'commentID' },
};

/**
 * Modules whose writes can make, change or remove an attendee's profile in an event (the personIDs the
 * call and its answer name); true: the change's object is the person too.
 */
const PEOPLE: Readonly<Record<string, boolean>> = {
  'event.person': true,
  'event.applicant': true,
  'event.guest': false,
  form: false,
  'activity.person': false,
};

/** Modules that can fill a whole event at once (an event copied from a sibling or a template). */
const WHOLE_EVENT: ReadonlySet<string> = new Set(['company.event']);

const idOf = (v: unknown): number | undefined => {
  const n = typeof v === 'string' ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
};

/** The ids named `name` by the change and the answer's rows, without repeats. */
function idsNamed(name: string, change: Change, rows: readonly Record<string, unknown>[], own: boolean): number[] {
  const ids = new Set<number>();
  const add = (v: unknown) => {
    const n = idOf(v);
    if (n !== undefined) ids.add(n);
  };
  add(change.ids?.[name]);
  if (own) add(change.objectID);
  for (const row of rows) add(row[name]);
  return [...ids];
}

/** Reads the objects again and replaces their documents (no object: its document goes). */
export async function reindex(trx: Kysely<DB>, type: SearchType, ids: readonly number[], eventID?: number) {
  if (ids.length === 0) return;
  const docs = await documentsOf(trx, type, { ids }, eventID);
  await replaceDocs(trx, type, eventID, ids, docs);
  if (type === 'activity' && docs.length < ids.length) {
    const kept = new Set(docs.map((d) => d.objectID));
    await dropCommentsOf(
      trx,
      ids.filter((id) => !kept.has(id)),
    );
  }
}

/** Indexes an event anew, every type (the seed, an event copied, a repair). */
export async function reindexEvent(trx: Kysely<DB>, eventID: number): Promise<void> {
  await dropEvent(trx, eventID, eventToken(eventID));
  for (const type of SEARCH_TYPES) await insertDocs(trx, await documentsOf(trx, type, { eventID }));
}

/** The hook: what the write `change` (answering `rows`) did to indexed objects, into the index. */
export async function indexChange(
  trx: Kysely<DB>,
  change: Change,
  rows: readonly Record<string, unknown>[],
): Promise<void> {
  const target = TYPE_OF[change.kind];
  if (target) {
    // A section's change names its event, not the section, when the call did not name one: its rows do.
    let ids = idsNamed(target.id, change, rows, target.type !== 'section');
    if (ids.length === 0 && target.type === 'section' && change.eventID) {
      const all = await trx.selectFrom('hotsite').select('sectionID').where('eventID', '=', change.eventID).execute();
      ids = all.map((r) => r.sectionID); // an event has few sections
    }
    await reindex(trx, target.type, ids);
    return;
  }
  const own = PEOPLE[change.kind];
  if (own !== undefined && change.eventID) {
    // Written after the commit, many at a time (pending.ts): an FTS5 write per registration costs half again.
    await notePending(trx, change.eventID, idsNamed('personID', change, rows, own));
    return;
  }
  if (WHOLE_EVENT.has(change.kind) && change.eventID) await reindexEvent(trx, change.eventID);
}

import type { Kysely, Selectable } from 'kysely';
import type { DB, ProgramChangeTable } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import type { ProgramChange } from '../../../shared/wire/program.ts';
import type { SessionChange } from './snapshot.ts';

// The program changelog's rows (migration 0007). Written by watch.ts inside the write's transaction,
// after the event's row lock, so versions of one event never collide and never skip.

/** Records `changes` as the event's next version at `at` (Unix seconds); answers the version (0: nothing to record). */
export async function recordProgramChanges(
  trx: Kysely<DB>,
  eventID: number,
  changes: readonly SessionChange[],
  at: number,
): Promise<number> {
  if (changes.length === 0) return 0;
  const [last, event] = await Promise.all([
    trx
      .selectFrom('programChange')
      .select((e) => e.fn.max('version').as('last'))
      .where('eventID', '=', eventID)
      .executeTakeFirst(),
    trx.selectFrom('event').select(['visible', 'isTemplate']).where('eventID', '=', eventID).executeTakeFirst(),
  ]);
  const version = Number(last?.last ?? 0) + 1;
  const shown = event?.visible === 1 && event.isTemplate !== 1 ? 1 : 0;
  await trx
    .insertInto('programChange')
    .values(
      changes.map((c) => ({
        eventID,
        version,
        at,
        activityID: c.activityID,
        kinds: c.kinds.join(','),
        shown,
        name: c.after?.name ?? '',
        location: c.after?.location ?? '',
        dateBegin: c.after?.dateBegin ?? null,
        dateEnd: c.after?.dateEnd ?? null,
        speakers: c.after?.speakers ?? '',
        oldName: c.before?.name ?? '',
        oldLocation: c.before?.location ?? '',
        oldDateBegin: c.before?.dateBegin ?? null,
        oldDateEnd: c.before?.dateEnd ?? null,
        oldSpeakers: c.before?.speakers ?? '',
      })),
    )
    .execute();
  return version;
}

export interface ProgramChangeFilter {
  /** Only versions above this one. */
  readonly since: number;
  /** Also the rows written while the event was hidden (the event's admins). */
  readonly hidden: boolean;
}

/** A stored row as activity.changes answers it (spec §1.2: every value a string, a missing one ''). */
const record = (r: Selectable<ProgramChangeTable>): ProgramChange => {
  const str = (v: number | string | null) => (v === null ? '' : String(v));
  return {
    version: str(r.version),
    date: str(r.at),
    eventID: str(r.eventID),
    activityID: str(r.activityID),
    kinds: r.kinds,
    name: r.name,
    location: r.location,
    dateBegin: str(r.dateBegin),
    dateEnd: str(r.dateEnd),
    speakers: r.speakers,
    oldName: r.oldName,
    oldLocation: r.oldLocation,
    oldDateBegin: str(r.oldDateBegin),
    oldDateEnd: str(r.oldDateEnd),
    oldSpeakers: r.oldSpeakers,
  };
};

/** An event's changes, newest first, one page (the total when the page asks). */
export function findProgramChanges(
  db: Kysely<DB>,
  eventID: number,
  filter: ProgramChangeFilter,
  page: Page,
): Promise<Paged<ProgramChange>> {
  let query = db
    .selectFrom('programChange')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('version', '>', filter.since);
  if (!filter.hidden) query = query.where('shown', '=', 1);
  query = query.orderBy('version', 'desc').orderBy('activityID');
  return readPage(db, query, page, (rows) => rows.map(record));
}

/** The rows of one version (one write) of an event's changelog, by activityID. */
export function changesOfVersion(
  db: Kysely<DB>,
  eventID: number,
  version: number,
): Promise<Selectable<ProgramChangeTable>[]> {
  return db
    .selectFrom('programChange')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('version', '=', version)
    .orderBy('activityID')
    .execute();
}

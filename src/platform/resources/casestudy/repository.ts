import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { readPage, type Page } from '../../db/page.ts';

// The store of case studies (migration 0016): at most one per event, made by its first edit.

const COLUMNS = [
  'caseStudy.caseID',
  'caseStudy.eventID',
  'event.name as eventName',
  'caseStudy.attendees',
  'caseStudy.downloads',
  'caseStudy.impressions',
  'caseStudy.headline',
  'caseStudy.challenges',
  'caseStudy.solution',
  'caseStudy.results',
  'caseStudy.videoKey',
  'caseStudy.slideKey',
  'caseStudy.date',
  'caseStudy.active',
] as const;

const read = (db: Kysely<DB>) =>
  db.selectFrom('caseStudy').innerJoin('event', 'event.eventID', 'caseStudy.eventID').select(COLUMNS);

/**
 * A case study as answered: every value a string. The ids too: case.find's answer must not be kept
 * as one event's in the answer cache (its rows are of many events, and any of them may change).
 */
const record = (r: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null || v === undefined ? '' : String(v)]));

export async function caseOf(db: Kysely<DB>, eventID: number) {
  const row = await read(db).where('caseStudy.eventID', '=', eventID).executeTakeFirst();
  return (
    row && { ...record(row), caseID: Number(row.caseID), eventID: Number(row.eventID), active: Number(row.active) }
  );
}

/** Sets one column of the event's case study, making it first when there is none; `date` is the edit's time. */
export async function setCase(db: Kysely<DB>, eventID: number, column: string, value: unknown, now: number) {
  await db
    .insertInto('caseStudy')
    .values({ eventID, date: now, [column]: value })
    .onConflict((oc) => oc.column('eventID').doUpdateSet({ [column]: value, date: now } as never))
    .execute();
}

/** The active case studies, newest edit first. */
export function activeCases(db: Kysely<DB>, page: Page) {
  const q = read(db)
    .where('caseStudy.active', '=', 1)
    .orderBy('caseStudy.date', 'desc')
    .orderBy('caseStudy.caseID', 'desc');
  return readPage(db, q, page, (rows) => rows.map(record));
}

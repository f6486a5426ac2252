import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { isPostgres } from '../../db/connect.ts';
import { conflict } from '../../errors.ts';
import { nonBlank } from '../../schemas.ts';
import { color } from '../hotsite/content.ts';

// Event tags (docs/api/site.md "Event tags"): tags of kind `event` belong to a company, not to an event
// (eventID empty); they classify the company's events (eventTag), which company.event.find selects and
// filters by `tags`. Company admins create and remove them (company.tag.*) and bind them to events
// (event.tag.*). The event-owned kinds (activity, attendee) stay with tag.*.

export const EVENT_TAG_KIND = 'event';

export const EVENT_TAG_FIELD = { name: nonBlank(100), color };

const COLUMNS = ['tag.tagID', 'tag.eventID', 'tag.companyID', 'tag.name', 'tag.color', 'tag.kind'] as const;

/** The event tags of a company, by name (ignoring case), then tagID. */
export function companyTagQuery(db: Kysely<DB>, companyID: number) {
  return db
    .selectFrom('tag')
    .select(COLUMNS)
    .where('tag.companyID', '=', companyID)
    .where('tag.kind', '=', EVENT_TAG_KIND)
    .where('tag.eventID', 'is', null);
}

/** One event tag of the company; undefined for any other tag (another company's, an event's own). */
export function companyTagByID(db: Kysely<DB>, companyID: number, tagID: number) {
  return companyTagQuery(db, companyID).where('tag.tagID', '=', tagID).executeTakeFirst();
}

/** The event tags bound to an event. */
export function tagsOfEvent(db: Kysely<DB>, eventID: number) {
  return db
    .selectFrom('eventTag')
    .innerJoin('tag', 'tag.tagID', 'eventTag.tagID')
    .select(COLUMNS)
    .where('eventTag.eventID', '=', eventID);
}

/**
 * Event tag names are unique within a company, whatever the case (409 otherwise). The company's row is
 * locked first (PostgreSQL), so two concurrent creates of one name cannot both pass; SQLite's write
 * transaction already serializes them.
 */
export async function checkCompanyTagName(trx: Kysely<DB>, companyID: number, name: string): Promise<void> {
  if (isPostgres(trx))
    await sql`select 1 from ${sql.table('company')} where ${sql.ref('companyID')} = ${companyID} for no key update`.execute(
      trx,
    );
  const rows = await companyTagQuery(trx, companyID).execute();
  const lower = name.toLowerCase();
  if (rows.some((r) => r.name.toLowerCase() === lower))
    throw conflict(`the company already has an event tag named ${name}`);
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { contains, lowerOf } from '../hotsite/content.ts';

/** The next `limit` attendees of the event with an address after personID `after`. */
export function addressesAfter(db: Kysely<DB>, eventID: number, after: number, limit: number) {
  return db
    .selectFrom('eventPerson')
    .select(['personID', 'email'])
    .where('eventID', '=', eventID)
    .where('personID', '>', after)
    .where('email', '!=', '')
    .orderBy('personID')
    .limit(limit)
    .execute();
}

/**
 * The addresses (lower-case, trimmed) of the listed attendees, [eventID, personID], that their event
 * has no check of, by event; an attendee removed since, or without an address, has none.
 */
export async function addressesOf(db: Kysely<DB>, people: readonly [number, number][]): Promise<Map<number, string[]>> {
  const byEvent = new Map<number, number[]>();
  for (const [eventID, personID] of people) {
    const list = byEvent.get(eventID);
    if (list) list.push(personID);
    else byEvent.set(eventID, [personID]);
  }
  const out = new Map<number, string[]>();
  for (const [eventID, personIDs] of byEvent) {
    const rows = await db
      .selectFrom('eventPerson')
      .select('email')
      .where('eventID', '=', eventID)
      .where('personID', 'in', personIDs)
      .where('email', '!=', '')
      .execute();
    const emails = [...new Set(rows.map((r) => r.email.trim().toLowerCase()).filter((e) => e !== ''))];
    if (emails.length === 0) continue;
    // The unique (eventID, email) of eventSanity answers this.
    const known = await db
      .selectFrom('eventSanity')
      .select('email')
      .where('eventID', '=', eventID)
      .where('email', 'in', emails)
      .execute();
    const checked = new Set(known.map((r) => r.email));
    const left = emails.filter((e) => !checked.has(e));
    if (left.length > 0) out.set(eventID, left);
  }
  return out;
}

/** Stores an address's check; an organizer's own word (manual) is kept. */
export async function storeSanity(db: Kysely<DB>, eventID: number, email: string, reason: string, now: number) {
  const clean = reason === '' || reason === 'dns-error' ? 1 : 0;
  await db
    .insertInto('eventSanity')
    .values({ eventID, email, clean, reason, date: now })
    .onConflict((oc) =>
      oc.columns(['eventID', 'email']).doUpdateSet({ clean, reason, date: now }).where('eventSanity.manual', '=', 0),
    )
    .execute();
}

export type SanitySort = 'email' | 'clean' | 'reason' | 'date';

/** The event's address checks: all, the clean ones (safe-emails) or the others (spam-emails). */
export function sanityRows(
  db: Kysely<DB>,
  o: {
    eventID: number;
    selection: 'all' | 'safe-emails' | 'spam-emails';
    query?: string;
    sort: SanitySort;
    order: 'asc' | 'desc';
    limit: number;
    offset: number;
  },
) {
  return db
    .selectFrom('eventSanity')
    .select(['eventSanityID', 'eventID', 'email', 'clean', 'reason', 'manual', 'date'])
    .where('eventID', '=', o.eventID)
    .$if(o.selection !== 'all', (q) => q.where('clean', '=', o.selection === 'safe-emails' ? 1 : 0))
    .$if(o.query !== undefined && o.query !== '', (q) => q.where(contains('email', o.query!)))
    .orderBy(o.sort === 'email' || o.sort === 'reason' ? lowerOf(o.sort) : o.sort, o.order)
    .orderBy('eventSanityID')
    .limit(o.limit)
    .offset(o.offset)
    .execute();
}

export const sanityByID = (db: Kysely<DB>, eventSanityID: number) =>
  db
    .selectFrom('eventSanity')
    .select(['eventSanityID', 'eventID', 'email', 'clean', 'reason', 'manual', 'date'])
    .where('eventSanityID', '=', eventSanityID)
    .executeTakeFirst();

/** The organizer's word on an address: clean or not, kept by later checks. */
export async function setClean(db: Kysely<DB>, eventSanityID: number, clean: number) {
  await db.updateTable('eventSanity').set({ clean, manual: 1 }).where('eventSanityID', '=', eventSanityID).execute();
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { conflict, notFound } from '../../errors.ts';

// An attendee's place in an event beyond the profile: label prints, and leaving the event.

/**
 * Counts one more label print (event.person.print), refused with 409 once the event's printLimit is
 * reached (0: no limit); 404 when the person is not an attendee. One statement, so two printers at
 * the same time cannot both pass the limit.
 */
export async function countPrint(db: Kysely<DB>, eventID: number, personID: number, now: number): Promise<void> {
  const limitOf = db.selectFrom('event').select('event.printLimit').where('event.eventID', '=', eventID);
  const result = await db
    .updateTable('eventPerson')
    .set({ prints: sql`${sql.ref('prints')} + 1`, updatedDate: now })
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .where((e) => e.or([e(limitOf, '=', 0), e('prints', '<', limitOf)]))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) > 0) return;
  const member = await db
    .selectFrom('eventPerson')
    .select('prints')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  if (!member) throw notFound('person');
  throw conflict(`the print limit of this event is reached (${member.prints} labels printed)`);
}

/**
 * Removes what an attendee has in the event itself: attendee tags, form answers, event-scope tokens
 * (their event password stops working) and the registration. Activities and lists are the callers'
 * (dismissFromEvent, removeFromEventLists), which hold their own locks.
 */
export async function removeRegistration(db: Kysely<DB>, eventID: number, personID: number): Promise<void> {
  for (const table of ['eventPersonTag', 'feedbackAnswer'] as const)
    await db.deleteFrom(table).where('eventID', '=', eventID).where('personID', '=', personID).execute();
  await db
    .deleteFrom('token')
    .where('personID', '=', personID)
    .where('scope', '=', 'event')
    .where('targetID', '=', eventID)
    .execute();
  await db.deleteFrom('eventPerson').where('eventID', '=', eventID).where('personID', '=', personID).execute();
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { eventTagsOfKind } from '../tag/repository.ts';
import { eventPersonOf } from '../rows.ts';
import { deleteGuestsOf } from '../guest/repository.ts';
import { keepCancelledCode } from '../checklog/repository.ts';

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
  const member = await eventPersonOf(db, eventID, personID).select('prints').executeTakeFirst();
  if (!member) throw notFound('person');
  throw conflict(`the print limit of this event is reached (${member.prints} labels printed)`);
}

/**
 * Removes what an attendee has in the event itself: attendee tags, form answers, event-scope tokens
 * (their event password stops working), the guests they bring and the registration. Activities and lists are the callers'
 * (dismissFromEvent, removeFromEventLists), which hold their own locks.
 */
export async function removeRegistration(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  /** Unix seconds. */
  now: number,
  /** The hash of a token that stays (the attendee's own, cancelling: event.person.dismiss without personID). */
  keepToken = '',
): Promise<void> {
  for (const table of ['eventPersonTag', 'feedbackAnswer'] as const)
    await db.deleteFrom(table).where('eventID', '=', eventID).where('personID', '=', personID).execute();
  await db
    .deleteFrom('token')
    .where('personID', '=', personID)
    .where('scope', '=', 'event')
    .where('targetID', '=', eventID)
    .where('tokenHash', '!=', keepToken)
    .execute();
  await deleteGuestsOf(db, eventID, personID);
  // A door that scans the code later says the registration was cancelled, not that the code is unknown.
  const row = await eventPersonOf(db, eventID, personID).select('qrCode').executeTakeFirst();
  if (row) await keepCancelledCode(db, eventID, row.qrCode, now);
  await db.deleteFrom('eventPerson').where('eventID', '=', eventID).where('personID', '=', personID).execute();
}

/** The names the event has of an attendee (undefined: not an attendee). */
export const attendeeNames = (db: Kysely<DB>, eventID: number, personID: number) =>
  eventPersonOf(db, eventID, personID).select(['firstName', 'lastName']).executeTakeFirst();

/** 409 when another attendee of the event already has this e-mail or NFC tag. */
export async function checkUniqueInEvent(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  column: 'email' | 'nfc',
  value: string,
): Promise<void> {
  const taken = await db
    .selectFrom('eventPerson')
    .select('personID')
    .where('eventID', '=', eventID)
    .where(column, '=', value)
    .where('personID', '!=', personID)
    .executeTakeFirst();
  if (taken) throw conflict(`${column} is already used by another attendee of this event`);
}

/** Sets this event's record of an attendee (never the person's identity or their other events). */
export async function updateAttendee(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  set: Record<string, unknown>,
  now: number,
): Promise<void> {
  await db
    .updateTable('eventPerson')
    .set({ ...set, updatedDate: now })
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .execute();
}

/** Replaces an attendee's tags with `tagIDs`, which must be attendee tags of the event (400 naming the first that is not). */
export async function setAttendeeTags(db: Kysely<DB>, eventID: number, personID: number, tagIDs: readonly number[]) {
  const ok = new Set(await eventTagsOfKind(db, eventID, 'attendee', tagIDs));
  const bad = tagIDs.find((t) => !ok.has(t));
  if (bad !== undefined) throw badRequest(`value tag ${bad} is not an attendee tag of this event (key tagIDs)`);
  await db.deleteFrom('eventPersonTag').where('eventID', '=', eventID).where('personID', '=', personID).execute();
  if (tagIDs.length > 0)
    await db
      .insertInto('eventPersonTag')
      .values(tagIDs.map((tagID) => ({ eventID, personID, tagID })))
      .execute();
}

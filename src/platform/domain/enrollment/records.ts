import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Activity attendee records (spec §2.5: personID, position, approved, paid, present, priori, rating,
 * enrollmentID) with the activity, the event, the attendee's name and e-mail as given to the event
 * and when they enrolled.
 */
export function attendeeQuery(db: Kysely<DB>) {
  return db
    .selectFrom('activityPerson')
    .innerJoin('eventPerson', (j) =>
      j
        .onRef('eventPerson.eventID', '=', 'activityPerson.eventID')
        .onRef('eventPerson.personID', '=', 'activityPerson.personID'),
    )
    .select([
      'activityPerson.activityID',
      'activityPerson.eventID',
      'activityPerson.enrollmentID',
      'activityPerson.personID',
      'eventPerson.name',
      'eventPerson.email',
      'activityPerson.position',
      'activityPerson.approved',
      'activityPerson.paid',
      'activityPerson.present',
      'activityPerson.priori',
      'activityPerson.rating',
      'activityPerson.dateCreated',
    ]);
}

export type AttendeeRow = Awaited<ReturnType<ReturnType<typeof attendeeQuery>['execute']>>[number];

export function attendeeRow(db: Kysely<DB>, activityID: number, personID: number) {
  return attendeeQuery(db)
    .where('activityPerson.activityID', '=', activityID)
    .where('activityPerson.personID', '=', personID)
    .executeTakeFirst();
}

/**
 * The record of a person who is not enrolled (spec §3: approved −1, not registered), with the name and
 * e-mail the event has of them (none when they are not its attendee).
 */
export async function absentRow(db: Kysely<DB>, activityID: number, eventID: number, personID: number) {
  const person = await db
    .selectFrom('eventPerson')
    .select(['name', 'email'])
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  return {
    activityID,
    eventID,
    enrollmentID: '',
    personID,
    name: person?.name ?? '',
    email: person?.email ?? '',
    position: 0,
    approved: -1,
    paid: 0,
    present: 0,
    priori: 0,
    rating: 0,
    dateCreated: '',
  };
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * Activity attendee records (spec §2.5: personID, position, approved, paid, present, priori, rating,
 * enrollmentID) with the activity, the event, the person's name and e-mail and when they enrolled.
 */
export function attendeeQuery(db: Kysely<DB>) {
  return db
    .selectFrom('activityPerson')
    .innerJoin('person', 'person.personID', 'activityPerson.personID')
    .select([
      'activityPerson.activityID',
      'activityPerson.eventID',
      'activityPerson.enrollmentID',
      'activityPerson.personID',
      'person.name',
      'person.email',
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

/** The record of a person who is not enrolled (spec §3: approved −1, not registered). */
export async function absentRow(db: Kysely<DB>, activityID: number, eventID: number, personID: number) {
  const person = await db
    .selectFrom('person')
    .select(['name', 'email'])
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

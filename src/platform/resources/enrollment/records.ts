import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { readPage, type Page } from '../../db/page.ts';
import { SELECTED_APPROVAL } from '../approval.ts';
import { contains } from '../hotsite/content.ts';
import { eventPersonOf } from '../rows.ts';

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
  const person = await eventPersonOf(db, eventID, personID).select(['name', 'email']).executeTakeFirst();
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

/** Columns activity.person.find may order by. */
export const ACTIVITY_PERSON_ORDERS = {
  enrollmentID: 'activityPerson.enrollmentID',
  personID: 'activityPerson.personID',
  name: 'eventPerson.name',
  email: 'eventPerson.email',
  position: 'activityPerson.position',
  approved: 'activityPerson.approved',
  paid: 'activityPerson.paid',
  present: 'activityPerson.present',
  priori: 'activityPerson.priori',
  rating: 'activityPerson.rating',
  dateCreated: 'activityPerson.dateCreated',
} as const;
export type ActivityPersonOrder = keyof typeof ACTIVITY_PERSON_ORDERS;

/**
 * One page of an activity's people (activity.person.find): in the approval states asked for (spec §3,
 * domain/approval.ts: denied = registered and not approved), paid, present, and whose name or e-mail
 * contains `query` (as typed: % and _ are not wildcards). By `order`, else approved first, then the
 * waiting list's order; the enrollmentID ends every order.
 */
export function activityPeoplePage(
  db: Kysely<DB>,
  activityID: number,
  filter: { approval: readonly ('approved' | 'denied')[]; paid: boolean; present: boolean; query?: string },
  order: ActivityPersonOrder | undefined,
  dir: 'asc' | 'desc',
  page: Page,
) {
  let base = attendeeQuery(db).where('activityPerson.activityID', '=', activityID);
  for (const s of filter.approval) base = base.where('activityPerson.approved', '=', SELECTED_APPROVAL[s]);
  if (filter.paid) base = base.where('activityPerson.paid', '=', 1);
  if (filter.present) base = base.where('activityPerson.present', '=', 1);
  const text = filter.query;
  if (text !== undefined)
    base = base.where((e) => e.or([contains('eventPerson.name', text), contains('eventPerson.email', text)]));
  const ordered =
    order !== undefined
      ? base.orderBy(ACTIVITY_PERSON_ORDERS[order], dir).orderBy('activityPerson.enrollmentID')
      : base
          .orderBy('activityPerson.approved', 'desc')
          .orderBy('activityPerson.position')
          .orderBy('activityPerson.enrollmentID');
  return readPage(db, ordered, page);
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { approvalFor, countsOf, lockActivities, refusalOf, renumber, type Seats } from './seats.ts';

// Automatic inscription (spec §2.4 `general`, docs/api/attendance.md "General activities"): the event's
// approved attendees are enrolled in its general activities through the same seat rules as
// activity.person.bind — approved while seats are free, then the waiting list while the activity's
// oversize allows, and skipped (not an error) when it is full, when it is limited to lists they are not
// in, or when one of its chains already holds as many of their activities as it allows. A person left
// out is not retried later; an admin can still enroll them.

/**
 * Enrolls a person who has just become an approved attendee of the event (form.respondRegistration,
 * event.person.bind, activity.person.bind by name + e-mail) in the event's general activities. One
 * query when the event has none, which keeps registration fast. Lock order: callers holding the event
 * row took it first; the activities are locked here, in ascending id order.
 */
export async function enrollInGeneral(db: Kysely<DB>, eventID: number, personID: number, now: number): Promise<void> {
  const general = await db
    .selectFrom('activity')
    .select('activityID')
    .where('eventID', '=', eventID)
    .where('general', '=', 1)
    .orderBy('activityID')
    .execute();
  if (general.length === 0) return;
  const seats = await lockActivities(
    db,
    general.map((a) => a.activityID),
  );
  for (const s of seats.values()) {
    const enrolled = await db
      .selectFrom('activityPerson')
      .select('enrollmentID')
      .where('activityID', '=', s.activityID)
      .where('personID', '=', personID)
      .executeTakeFirst();
    if (enrolled) continue;
    const counts = await countsOf(db, s.activityID);
    if (await refusalOf(db, s, personID, counts)) continue;
    const approved = approvalFor(s, counts);
    await db
      .insertInto('activityPerson')
      .values({ activityID: s.activityID, eventID, personID, approved, dateCreated: now })
      .execute();
    if (approved === 0) await renumber(db, s.activityID);
  }
}

/**
 * For a call that may create attendees while it holds activity locks (activity.person.bind by name +
 * e-mail or CSV): locks its activities together with the event's general activities, all ascending,
 * so enrollInGeneral never takes a lower id after a higher one (no lock-order cycle on PostgreSQL).
 */
export async function lockWithGeneral(
  db: Kysely<DB>,
  eventID: number,
  activityIDs: readonly number[],
): Promise<Map<number, Seats>> {
  const general = await db
    .selectFrom('activity')
    .select('activityID')
    .where('eventID', '=', eventID)
    .where('general', '=', 1)
    .execute();
  return lockActivities(db, [...new Set([...activityIDs, ...general.map((a) => a.activityID)])]);
}

/**
 * An activity has just become general (activity.edit general 0 → 1): enrolls the event's approved
 * attendees who are not in it yet, first registered first (so the seats and then the waiting list
 * follow registration order), under the same rules as enrollInGeneral. Counts are kept in memory (the
 * activity's lock is held), and the list and chain rules are read per person only when the activity
 * has lists or chains. Answers how many were enrolled.
 */
export async function enrollAttendeesInGeneral(db: Kysely<DB>, activityID: number, now: number): Promise<number> {
  const seats = (await lockActivities(db, [activityID])).get(activityID)!;
  const people = await db
    .selectFrom('eventPerson')
    .select('personID')
    .where('eventID', '=', seats.eventID)
    .where('approved', '=', 1)
    .where('personID', 'not in', (e) =>
      e
        .selectFrom('activityPerson')
        .select('activityPerson.personID')
        .where('activityPerson.activityID', '=', activityID),
    )
    .orderBy('enrollmentID')
    .execute();
  if (people.length === 0) return 0;
  const hasRules =
    (await db.selectFrom('activityList').select('listID').where('activityID', '=', activityID).executeTakeFirst()) !==
      undefined ||
    (await db.selectFrom('activityChain').select('chainID').where('activityID', '=', activityID).executeTakeFirst()) !==
      undefined;
  const counts = await countsOf(db, activityID);
  const rows = [];
  for (const { personID } of people) {
    if (seats.oversize > 0 && counts.approved + counts.waiting >= seats.oversize) break;
    if (hasRules && (await refusalOf(db, seats, personID, counts))) continue;
    const approved = approvalFor(seats, counts);
    if (approved === 1) counts.approved++;
    else counts.waiting++;
    rows.push({ activityID, eventID: seats.eventID, personID, approved, dateCreated: now });
  }
  for (let i = 0; i < rows.length; i += 500)
    await db
      .insertInto('activityPerson')
      .values(rows.slice(i, i + 500))
      .execute();
  if (rows.some((r) => r.approved === 0)) await renumber(db, activityID);
  return rows.length;
}

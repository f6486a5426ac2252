import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { placesTaken } from '../guest/repository.ts';
import { enrollInGeneral, lockWithGeneral } from '../enrollment/general.ts';

// The event's own waiting list (docs/api/attendees.md "The event's waiting list"): an event with a
// capacity and `waitingList` 1 registers people beyond the capacity with `approved` 0. Its queue is
// registration order (the attendee's `enrollmentID`; the event has no `priori`), and `position` on the
// attendee record is the place in it. When an approved attendee leaves the event (event.person.dismiss,
// the attendee's own cancel and an admin's alike), the queue moves up while places are free — guests
// take places too — each person promoted as an approval makes them an attendee: enrolled in the event's
// general activities and sent the registration's confirmation (by the caller, which holds the job queue).

/** The event's settings when its waiting list moves on its own (a capacity and waitingList 1), else undefined. */
export async function movingQueue(db: Kysely<DB>, eventID: number): Promise<{ capacity: number } | undefined> {
  const e = await db
    .selectFrom('event')
    .select(['capacity', 'waitingList'])
    .where('eventID', '=', eventID)
    .executeTakeFirst();
  return e && e.capacity > 0 && e.waitingList === 1 ? { capacity: e.capacity } : undefined;
}

/** Whether anyone waits in the event's queue (approved 0). */
export async function anyoneWaiting(db: Kysely<DB>, eventID: number): Promise<boolean> {
  const row = await db
    .selectFrom('eventPerson')
    .select('personID')
    .where('eventID', '=', eventID)
    .where('approved', '=', 0)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Before someone leaving makes room (event.person.dismiss, after the event row's lock): locks the person's
 * activities together with the event's general ones, all ascending, so that promoteWaiting's enrolments
 * never take a lower activity after a higher one (no lock-order cycle on PostgreSQL).
 */
export async function lockForPromotion(db: Kysely<DB>, eventID: number, personID: number): Promise<void> {
  const own = await db
    .selectFrom('activityPerson')
    .select('activityID')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .execute();
  await lockWithGeneral(
    db,
    eventID,
    own.map((a) => a.activityID),
  );
}

/**
 * Approves the first of the event's waiting list, in queue order, while places are free (approved
 * attendees plus guests below the capacity), and enrolls each in the event's general activities.
 * Answers the people promoted, in queue order (the caller queues their confirmations). Runs in the
 * call's transaction after the caller took the event row's lock, then the activities' (the general ones
 * included: enrollInGeneral takes them again, so lock order stays event, then activities ascending).
 * Nothing to do — no capacity, no waiting list, no free place, nobody waiting — changes nothing.
 */
export async function promoteWaiting(db: Kysely<DB>, eventID: number, now: number): Promise<number[]> {
  const queue = await movingQueue(db, eventID);
  if (!queue) return [];
  const free = queue.capacity - (await placesTaken(db, eventID, queue.capacity));
  if (free <= 0) return [];
  const next = await db
    .selectFrom('eventPerson')
    .select('personID')
    .where('eventID', '=', eventID)
    .where('approved', '=', 0)
    .orderBy('enrollmentID')
    .limit(free)
    .execute();
  const promoted: number[] = [];
  for (const { personID } of next) {
    // Conditional: approved already (a concurrent call on a store without the event's row lock) is left alone.
    const done = await db
      .updateTable('eventPerson')
      .set({ approved: 1, updatedDate: now })
      .where('eventID', '=', eventID)
      .where('personID', '=', personID)
      .where('approved', '=', 0)
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) === 0) continue;
    await enrollInGeneral(db, eventID, personID, now);
    promoted.push(personID);
  }
  return promoted;
}

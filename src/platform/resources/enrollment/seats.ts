import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { lockRow } from '../../db/lock.ts';
import { ApiError, conflict, notFound } from '../../errors.ts';
import { attendeeRow, type AttendeeRow } from './records.ts';
import { chainsAtLimit, listAdmits } from './rules.ts';
import { ENROL_REFUSED, chainRefusal } from '../../../shared/refused.ts';

// The seat rules of activity attendance (docs/api/attendance.md): capacity, waiting list (approved 0,
// `position` = place in the queue), oversize, automatic promotion. Every function here runs inside the
// write transaction of the call, after lockActivities() took the activities' row locks.

/** What the seat rules read from an activity. */
export interface Seats {
  readonly activityID: number;
  readonly eventID: number;
  /** Maximum approved people; 0 = no limit. */
  readonly capacity: number;
  /** Maximum people attending (approved + waiting); 0 = no limit. */
  readonly oversize: number;
  readonly lockOperations: number;
}

export function seatsOf(db: Kysely<DB>, activityID: number): Promise<Seats | undefined> {
  return db
    .selectFrom('activity')
    .select(['activityID', 'eventID', 'capacity', 'oversize', 'lockOperations'])
    .where('activityID', '=', activityID)
    .executeTakeFirst();
}

/**
 * Takes the row locks of the activities a call changes, and of every activity chained with them (the
 * chain rule reads those), in ascending activityID order so two calls never wait on each other in a
 * cycle. Callers that also lock the event row lock it first. Answers the activities' seat settings.
 */
export async function lockActivities(db: Kysely<DB>, activityIDs: readonly number[]): Promise<Map<number, Seats>> {
  const ids = new Set(activityIDs);
  for (let i = 0; i < activityIDs.length; i += 500) {
    const mates = await db
      .selectFrom('activityChain as mine')
      .innerJoin('activityChain as other', 'other.chainID', 'mine.chainID')
      .select('other.activityID')
      .distinct()
      .where('mine.activityID', 'in', activityIDs.slice(i, i + 500))
      .execute();
    for (const m of mates) ids.add(m.activityID);
  }
  for (const id of [...ids].sort((a, b) => a - b)) await lockRow(db, 'activity', id);
  const out = new Map<number, Seats>();
  for (const id of activityIDs) {
    const seats = await seatsOf(db, id);
    if (!seats) throw notFound('activity');
    out.set(id, seats);
  }
  return out;
}

export interface Counts {
  approved: number;
  waiting: number;
  paid: number;
  present: number;
}

export async function countsOf(db: Kysely<DB>, activityID: number): Promise<Counts> {
  const row = await db
    .selectFrom('activityPerson')
    .select([
      sql<number>`sum(case when ${sql.ref('approved')} = 1 then 1 else 0 end)`.as('approved'),
      sql<number>`sum(case when ${sql.ref('approved')} = 0 then 1 else 0 end)`.as('waiting'),
      sql<number>`sum(${sql.ref('paid')})`.as('paid'),
      sql<number>`sum(${sql.ref('present')})`.as('present'),
    ])
    .where('activityID', '=', activityID)
    .executeTakeFirstOrThrow();
  return {
    approved: Number(row.approved ?? 0),
    waiting: Number(row.waiting ?? 0),
    paid: Number(row.paid ?? 0),
    present: Number(row.present ?? 0),
  };
}

/**
 * `position`: 0 for approved people, 1…n for the waiting list in queue order (priori 1 first, then by
 * enrollmentID). One statement, run after every change of the queue.
 */
export async function renumber(db: Kysely<DB>, activityID: number): Promise<void> {
  await sql`
    update ${sql.table('activityPerson')} set ${sql.ref('position')} = case when ${sql.ref('approved')} = 1 then 0 else (
      select count(*) from ${sql.table('activityPerson')} as q
      where q.${sql.ref('activityID')} = ${sql.ref('activityPerson.activityID')} and q.${sql.ref('approved')} = 0
        and (q.${sql.ref('priori')} > ${sql.ref('activityPerson.priori')}
          or (q.${sql.ref('priori')} = ${sql.ref('activityPerson.priori')}
            and q.${sql.ref('enrollmentID')} <= ${sql.ref('activityPerson.enrollmentID')}))
    ) end
    where ${sql.ref('activityID')} = ${activityID} and (${sql.ref('approved')} = 0 or ${sql.ref('position')} <> 0)
  `.execute(db);
}

/**
 * Gives free seats to the waiting list, first in the queue first, as long as approved < capacity.
 * Without a capacity there is no automatic waiting list: people at 0 were put there by an admin and
 * stay until an admin approves them. `except`: a person just moved to the waiting list by an admin.
 */
export async function refill(db: Kysely<DB>, seats: Seats, except?: number): Promise<number> {
  if (seats.capacity <= 0) return 0;
  const free = seats.capacity - (await countsOf(db, seats.activityID)).approved;
  if (free <= 0) return 0;
  const next = await db
    .selectFrom('activityPerson')
    .select('enrollmentID')
    .where('activityID', '=', seats.activityID)
    .where('approved', '=', 0)
    .$if(except !== undefined, (w) => w.where('personID', '!=', except!))
    .orderBy('priori', 'desc')
    .orderBy('enrollmentID')
    .limit(free)
    .execute();
  if (next.length === 0) return 0;
  await db
    .updateTable('activityPerson')
    .set({ approved: 1 })
    .where(
      'enrollmentID',
      'in',
      next.map((n) => n.enrollmentID),
    )
    .execute();
  return next.length;
}

export interface BindWho {
  /** The caller is an event admin (the list rule then answers 409 instead of 403). */
  readonly admin: boolean;
  /** The person binds themself (messages say "you"). */
  readonly self: boolean;
}

/** Why the rules keep a person out of an activity (none: they may take a seat or a place in the queue). */
export type Refusal =
  | { readonly rule: 'list' }
  | { readonly rule: 'chain'; readonly chain: Awaited<ReturnType<typeof chainsAtLimit>>[number] }
  | { readonly rule: 'full' };

/** The list rule, the chain rule, then oversize: what bindSeat and the automatic inscription check. */
export async function refusalOf(
  db: Kysely<DB>,
  seats: Seats,
  personID: number,
  counts: Counts,
): Promise<Refusal | undefined> {
  if (!(await listAdmits(db, seats.activityID, personID))) return { rule: 'list' };
  const chain = (await chainsAtLimit(db, seats.activityID, personID))[0];
  if (chain) return { rule: 'chain', chain };
  if (seats.oversize > 0 && counts.approved + counts.waiting >= seats.oversize) return { rule: 'full' };
  return undefined;
}

/** Approved while approved < capacity (or without one), else the waiting list. */
export const approvalFor = (seats: Seats, counts: Counts): number =>
  seats.capacity === 0 || counts.approved < seats.capacity ? 1 : 0;

/**
 * Enrolls a person (already checked to be an attendee of the activity's event). Binding someone who is
 * already enrolled answers their row unchanged. Otherwise the list rule, the chain rule, then the seats:
 * approved while approved < capacity, else the waiting list while attending < oversize, else 409.
 */
export async function bindSeat(
  db: Kysely<DB>,
  seats: Seats,
  personID: number,
  now: number,
  who: BindWho,
): Promise<AttendeeRow> {
  const current = await attendeeRow(db, seats.activityID, personID);
  if (current) return current;

  const counts = await countsOf(db, seats.activityID);
  const refusal = await refusalOf(db, seats, personID, counts);
  if (refusal?.rule === 'list') {
    if (who.admin)
      throw conflict(`person ${personID} is in none of the lists this activity is limited to: add them to one first`);
    throw new ApiError(403, ENROL_REFUSED.limited);
  }
  if (refusal?.rule === 'chain') {
    const { chain } = refusal;
    const whom = who.self ? 'you are' : `person ${personID} is`;
    throw conflict(chainRefusal(whom, chain.enrolled, { ...chain, max: chain.maxPerPerson }));
  }
  if (refusal?.rule === 'full') throw conflict(ENROL_REFUSED.full);
  const approved = approvalFor(seats, counts);
  await db
    .insertInto('activityPerson')
    .values({ activityID: seats.activityID, eventID: seats.eventID, personID, approved, dateCreated: now })
    .execute();
  if (approved === 0) await renumber(db, seats.activityID);
  return (await attendeeRow(db, seats.activityID, personID))!;
}

/**
 * Removes a person from an activity; when they held a seat, the first of the waiting list takes it.
 * Answers whether they were enrolled (dismissing someone who is not changes nothing).
 */
export async function dismissSeat(db: Kysely<DB>, seats: Seats, personID: number): Promise<boolean> {
  const current = await db
    .selectFrom('activityPerson')
    .select(['enrollmentID', 'approved'])
    .where('activityID', '=', seats.activityID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  if (!current) return false;
  await db.deleteFrom('activityPerson').where('enrollmentID', '=', current.enrollmentID).execute();
  if (current.approved === 1) await refill(db, seats);
  await renumber(db, seats.activityID);
  return true;
}

export type SeatField = 'approved' | 'paid' | 'present' | 'priori';

/**
 * Sets one bit of an enrollment (activity.person.operate). approved 1 by an admin may go beyond the
 * capacity; approved 0 moves the person to the waiting list and their seat to the first person waiting.
 */
export async function setSeatField(
  db: Kysely<DB>,
  seats: Seats,
  personID: number,
  field: SeatField,
  value: number,
): Promise<AttendeeRow> {
  const current = await attendeeRow(db, seats.activityID, personID);
  if (!current) throw notFound('enrollment of the person in this activity');
  if (current[field] === value) return current;
  await db
    .updateTable('activityPerson')
    .set({ [field]: value })
    .where('enrollmentID', '=', current.enrollmentID)
    .execute();
  if (field === 'approved' && value === 0) await refill(db, seats, personID);
  if (field === 'approved' || field === 'priori') await renumber(db, seats.activityID);
  return (await attendeeRow(db, seats.activityID, personID))!;
}

/**
 * For other operations that change the seats of an activity (activity.edit of capacity or oversize):
 * gives new free seats to the waiting list and renumbers it. Takes the activity's lock itself.
 */
export async function reseat(db: Kysely<DB>, activityID: number): Promise<void> {
  const seats = (await lockActivities(db, [activityID])).get(activityID)!;
  await refill(db, seats);
  await renumber(db, activityID);
}

/**
 * For removing an attendee from an event (event.person.dismiss): dismisses them from every activity of
 * the event, each freed seat going to that activity's waiting list. Callers holding the event row's
 * lock take it before this (lock order: event, then activities).
 */
export async function dismissFromEvent(db: Kysely<DB>, eventID: number, personID: number): Promise<void> {
  const rows = await db
    .selectFrom('activityPerson')
    .select('activityID')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .execute();
  if (rows.length === 0) return;
  const seats = await lockActivities(
    db,
    rows.map((r) => r.activityID),
  );
  for (const s of seats.values()) await dismissSeat(db, s, personID);
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ApiError, notFound } from '../../errors.ts';
import { eventPersonOf } from '../rows.ts';
import { ENROL_REFUSED } from '../../../shared/refused.ts';

export function isAttendee(db: Kysely<DB>, eventID: number, personID: number): Promise<boolean> {
  return eventPersonOf(db, eventID, personID)
    .select('personID')
    .executeTakeFirst()
    .then((r) => r !== undefined);
}

/** A person named by an admin must be an attendee of the event: otherwise 404, as if they did not exist. */
export async function requireAttendee(db: Kysely<DB>, eventID: number, personID: number): Promise<void> {
  if (!(await isAttendee(db, eventID, personID))) throw notFound('person');
}

/** lockOperations=1: members cannot enroll, dismiss or reprioritize themselves; admins still can. */
export function requireUnlocked(seats: { lockOperations: number }): void {
  if (seats.lockOperations === 1) throw new ApiError(403, ENROL_REFUSED.locked);
}

/**
 * Spec §4.5 "activities can be limited to people in one or several lists": true when the activity has
 * no list, or the person is in at least one of its lists.
 */
export async function listAdmits(db: Kysely<DB>, activityID: number, personID: number): Promise<boolean> {
  const lists = await db
    .selectFrom('activityList')
    .leftJoin('listPerson', (j) =>
      j.onRef('listPerson.listID', '=', 'activityList.listID').on('listPerson.personID', '=', personID),
    )
    .select(['activityList.listID', 'listPerson.personID'])
    .where('activityList.activityID', '=', activityID)
    .execute();
  return lists.length === 0 || lists.some((l) => l.personID !== null);
}

/**
 * Spec §4.5 chained activities: the chains of `activityID` in which the person is already enrolled
 * (waiting or approved) in `maxPerPerson` other activities, so one more would break the chain's rule.
 */
export async function chainsAtLimit(db: Kysely<DB>, activityID: number, personID: number) {
  const rows = await db
    .selectFrom('chain')
    .innerJoin('activityChain as mine', (j) =>
      j.onRef('mine.chainID', '=', 'chain.chainID').on('mine.activityID', '=', activityID),
    )
    .innerJoin('activityChain as other', (j) =>
      j.onRef('other.chainID', '=', 'chain.chainID').on('other.activityID', '!=', activityID),
    )
    .innerJoin('activityPerson', (j) =>
      j.onRef('activityPerson.activityID', '=', 'other.activityID').on('activityPerson.personID', '=', personID),
    )
    .select(['chain.chainID', 'chain.name', 'chain.maxPerPerson', sql<number>`count(*)`.as('enrolled')])
    .groupBy(['chain.chainID', 'chain.name', 'chain.maxPerPerson'])
    .orderBy('chain.chainID')
    .execute();
  return rows
    .map((r) => ({ ...r, enrolled: Number(r.enrolled) }))
    .filter((r) => r.enrolled >= Math.max(1, r.maxPerPerson));
}

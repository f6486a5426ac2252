import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { ApiError, notFound } from '../../errors.ts';
import { LEVEL, type Context } from '../../table.ts';

/** Whether the caller is an admin of the event the dispatcher authorized (company admins and operators are). */
export const isEventAdmin = (ctx: Context): boolean => ((ctx.access?.level ?? 0) & LEVEL.ADMIN) !== 0;

/** Admins and staff: who may read other people's enrollments. */
export const isAdminOrStaff = (ctx: Context): boolean => ((ctx.access?.level ?? 0) & (LEVEL.ADMIN | LEVEL.STAFF)) !== 0;

/** The admin forms: 403 for members below admin (event-scope tokens of admins are downgraded to User). */
export function requireAdmin(ctx: Context, what: string): void {
  if (!isEventAdmin(ctx)) throw new ApiError(403, `only event admins may ${what}`);
}

/** The event the dispatcher authorized (every attendance operation has an `event` rule). */
export const eventOfCall = (ctx: Context): number => ctx.access!.eventID!;

export function isAttendee(db: Kysely<DB>, eventID: number, personID: number): Promise<boolean> {
  return db
    .selectFrom('eventPerson')
    .select('personID')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst()
    .then((r) => r !== undefined);
}

/** A person named by an admin must be an attendee of the event: otherwise 404, as if they did not exist. */
export async function requireAttendee(db: Kysely<DB>, eventID: number, personID: number): Promise<void> {
  if (!(await isAttendee(db, eventID, personID))) throw notFound('person');
}

/** The token's person, who must be an attendee of the event to change their own enrollment. */
export async function selfAttendee(ctx: Context): Promise<number> {
  const personID = ctx.caller!.personID;
  if (!(await isAttendee(ctx.db, eventOfCall(ctx), personID)))
    throw new ApiError(403, 'only attendees of the event can join or leave its activities');
  return personID;
}

/** lockOperations=1: members cannot enroll, dismiss or reprioritize themselves; admins still can. */
export function requireUnlocked(seats: { lockOperations: number }): void {
  if (seats.lockOperations === 1)
    throw new ApiError(403, 'this activity is locked: only event admins can change its attendees');
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

import { sql, type Insertable, type Kysely } from 'kysely';
import type { ActivityTable, DB } from '../../db/schema.ts';
import { badRequest } from '../../errors.ts';
import { fromWallTime, wallTime } from '../time.ts';
import { activityQuery, activityRows, type ActivityRow } from './record.ts';
import { eventPersonOf } from '../rows.ts';

/** One activity's record columns, or undefined. */
export function activityRow(db: Kysely<DB>, activityID: number): Promise<ActivityRow | undefined> {
  return activityQuery(db).where('activity.activityID', '=', activityID).executeTakeFirst();
}

/** Rows of `activityIDs` in that order (activityRows answers in the store's order). */
export async function activityRowsInOrder(db: Kysely<DB>, activityIDs: readonly number[]): Promise<ActivityRow[]> {
  const rows: ActivityRow[] = [];
  for (let i = 0; i < activityIDs.length; i += 500)
    rows.push(...(await activityRows(db, activityIDs.slice(i, i + 500))));
  const byID = new Map(rows.map((r) => [r.activityID, r]));
  return activityIDs.map((id) => byID.get(id)).filter((r): r is ActivityRow => r !== undefined);
}

export interface ActivityInput {
  name: string;
  description?: string;
  location?: string;
  dateBegin?: number;
  dateEnd?: number;
  capacity?: number;
}

/**
 * The row an input makes in an event: a missing dateBegin is the event's dateBegin, a missing
 * dateEnd is dateBegin (a point in time until edited); dateEnd before dateBegin is refused.
 * `where` prefixes the error (e.g. "path row 3: ").
 */
export function newActivity(
  input: ActivityInput,
  event: { eventID: number; dateBegin: number },
  creatorID: number,
  now: number,
  where = '',
): Insertable<ActivityTable> {
  const dateBegin =
    input.dateBegin ?? (input.dateEnd !== undefined ? Math.min(event.dateBegin, input.dateEnd) : event.dateBegin);
  const dateEnd = input.dateEnd ?? dateBegin;
  if (dateEnd < dateBegin) throw badRequest(`${where}dateEnd cannot be before dateBegin`);
  return {
    eventID: event.eventID,
    name: input.name,
    description: input.description ?? '',
    location: input.location ?? '',
    dateBegin,
    dateEnd,
    capacity: input.capacity ?? 0,
    personID: creatorID,
    dateCreated: now,
    updatedDate: now,
  };
}

/** Inserts rows (in chunks, under SQLite's bound-parameter limit) and returns their ids in order. */
export async function insertActivities(db: Kysely<DB>, rows: readonly Insertable<ActivityTable>[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    // One insert per chunk; RETURNING order is the VALUES order on both stores, but sorting the
    // serial ids makes that independent of the store (they are allocated in VALUES order).
    const out = await db.insertInto('activity').values(chunk).returning('activityID').execute();
    ids.push(...out.map((r) => r.activityID).sort((a, b) => a - b));
  }
  return ids;
}

/** The relation tables an activity copy carries over (its attendees are not copied). */
const COPIED_RELATIONS = [
  ['activitySpeaker', 'speakerID'],
  ['activitySponsor', 'sponsorID'],
  ['activityTag', 'tagID'],
  ['activityList', 'listID'],
  ['activityChain', 'chainID'],
] as const;

/**
 * Copies an activity within its event: every field (same name), a new id, the copier as creator,
 * and its speakers, sponsors, tags, lists and chains. Returns the new id.
 */
export async function copyActivity(db: Kysely<DB>, activityID: number, creatorID: number, now: number) {
  const source = await db
    .selectFrom('activity')
    .selectAll()
    .where('activityID', '=', activityID)
    .executeTakeFirstOrThrow();
  const { activityID: _old, ...fields } = source;
  const { activityID: newID } = await db
    .insertInto('activity')
    .values({ ...fields, personID: creatorID, dateCreated: now, updatedDate: now })
    .returning('activityID')
    .executeTakeFirstOrThrow();
  for (const [table, other] of COPIED_RELATIONS) {
    await db
      .insertInto(table)
      .columns(['activityID', other] as never)
      .expression(
        db
          .selectFrom(table)
          // A number from the store, inlined so PostgreSQL types the column as integer, not text.
          .select([sql.lit(newID).as('activityID'), other] as never)
          .where('activityID', '=', activityID) as never,
      )
      .execute();
  }
  return newID;
}

/** The instant the event's calendar day after the one containing `t` begins. */
export function nextDayStart(t: number, timeZone: string): number {
  const w = wallTime(t, timeZone);
  const next = new Date(Date.UTC(w.year, w.month - 1, w.day + 1));
  return fromWallTime(
    {
      year: next.getUTCFullYear(),
      month: next.getUTCMonth() + 1,
      day: next.getUTCDate(),
      hour: 0,
      minute: 0,
      second: 0,
    },
    timeZone,
  );
}

/**
 * Moves an activity (and with `subsequent`, the other activities of the event that begin at or
 * after it on the same calendar day in the event's time zone) by `seconds`. Returns the moved rows,
 * by dateBegin then activityID. The caller holds the activity's row lock.
 */
export async function delayActivities(
  db: Kysely<DB>,
  activity: { activityID: number; eventID: number; dateBegin: number },
  seconds: number,
  subsequent: boolean,
  timeZone: string,
  now: number,
): Promise<ActivityRow[]> {
  let ids = [activity.activityID];
  if (subsequent) {
    const later = await db
      .selectFrom('activity')
      .select('activityID')
      .where('eventID', '=', activity.eventID)
      .where('activityID', '!=', activity.activityID)
      .where('dateBegin', '>=', activity.dateBegin)
      .where('dateBegin', '<', nextDayStart(activity.dateBegin, timeZone))
      .execute();
    ids = [...ids, ...later.map((r) => r.activityID)];
  }
  for (let i = 0; i < ids.length; i += 500) {
    await db
      .updateTable('activity')
      .set((e) => ({
        dateBegin: sql<number>`${e.ref('dateBegin')} + ${seconds}`,
        dateEnd: sql<number>`${e.ref('dateEnd')} + ${seconds}`,
        updatedDate: now,
      }))
      .where('activityID', 'in', ids.slice(i, i + 500))
      .execute();
  }
  const rows = await activityRowsInOrder(db, ids);
  return rows.sort((a, b) => a.dateBegin - b.dateBegin || a.activityID - b.activityID);
}

/**
 * Whether a person belongs to the event as activity operations see it: registered in it (an
 * eventPerson row) or enrolled in one of its activities.
 */
export async function personInEvent(db: Kysely<DB>, eventID: number, personID: number): Promise<boolean> {
  const row = await eventPersonOf(db, eventID, personID)
    .select('personID')
    .union(
      db
        .selectFrom('activityPerson')
        .select('personID')
        .where('eventID', '=', eventID)
        .where('personID', '=', personID),
    )
    .executeTakeFirst();
  return row !== undefined;
}

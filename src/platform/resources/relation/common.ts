import { nonBlank } from '../../schemas.ts';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { notFound } from '../../errors.ts';

/** Objects that belong to one event: their table has `<table>ID` and `eventID`. */
export type EventObject = 'activity' | 'chain' | 'list' | 'speaker' | 'sponsor' | 'tag';

/** The relation tables of spec §2.5 (plus list members): two ids, both the primary key. */
export type PairTable =
  'activityChain' | 'activityList' | 'listPerson' | 'activitySpeaker' | 'activitySponsor' | 'activityTag' | 'eventTag';

/**
 * The second object a call names must be in the event the auth rule checked: otherwise 404 naming
 * it, as if it did not exist (a caller cannot link objects of two events or probe other events).
 */
export async function requireInEvent(db: Kysely<DB>, eventID: number, table: EventObject, id: number): Promise<void> {
  const row = await db
    .selectFrom(table)
    .select('eventID')
    .where(`${table}ID` as never, '=', id as never)
    .executeTakeFirst();
  if (!row || row.eventID !== eventID) throw notFound(table);
}

/**
 * Links two objects. Binding a pair that is already linked changes nothing (idempotent): the insert
 * skips a conflicting row, so two concurrent binds of the same pair both succeed.
 */
export async function bindPair<T extends PairTable>(db: Kysely<DB>, table: T, pair: DB[T]): Promise<void> {
  await db
    .insertInto(table)
    .values(pair as never)
    .onConflict((oc) => oc.columns(Object.keys(pair as object) as never).doNothing())
    .execute();
}

/** Unlinks two objects; unlinking a pair that is not linked changes nothing (idempotent). */
export async function dismissPair<T extends PairTable>(db: Kysely<DB>, table: T, pair: DB[T]): Promise<void> {
  let query = db.deleteFrom(table as PairTable);
  for (const [column, value] of Object.entries(pair as object)) query = query.where(column as never, '=', value);
  await query.execute();
}

/** Name of a chain or list: trimmed, not blank, at most 200 characters. */
export const relationName = nonBlank(200);

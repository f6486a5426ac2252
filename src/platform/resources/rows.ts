import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.ts';

// Row gateways: one row of a table by its id, for the operations whose write is exactly that (the
// rules around it live in their domain folders). Typed by table name; the columns are the caller's.

/**
 * Deletes one row by its id column. What hangs from it (relations, answers, enrollments) goes with
 * it through the store's `on delete cascade` foreign keys (migrations 0001–0003).
 */
export async function deleteRow(db: Kysely<DB>, table: keyof DB, idColumn: string, id: number): Promise<void> {
  await (db as Kysely<any>).deleteFrom(table).where(idColumn, '=', id).execute();
}

/** Inserts one row and answers its new id (the table's serial `idColumn`). */
export async function insertRow(
  db: Kysely<DB>,
  table: keyof DB,
  idColumn: string,
  values: Record<string, unknown>,
): Promise<number> {
  const row = await (db as Kysely<any>).insertInto(table).values(values).returning(idColumn).executeTakeFirstOrThrow();
  return Number(row[idColumn]);
}

/** Sets columns of the row whose `idColumn` is `id` (an edit-style operation's one key). */
export async function updateRow(
  db: Kysely<DB>,
  table: keyof DB,
  idColumn: string,
  id: number,
  values: Record<string, unknown>,
): Promise<void> {
  await (db as Kysely<any>).updateTable(table).set(values).where(idColumn, '=', id).execute();
}

/**
 * A write that checks before it writes (capacity, duplicates) first takes the write lock of the row
 * it depends on: the event, then its activities, in that order everywhere (db/lock.ts).
 */
export { lockRow } from '../db/lock.ts';

/** The event's record of one person (eventPerson): a query the caller selects columns from. */
export const eventPersonOf = (db: Kysely<DB>, eventID: number, personID: number) =>
  db.selectFrom('eventPerson').where('eventID', '=', eventID).where('personID', '=', personID);

import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.ts';
import { isPostgres } from './connect.ts';

type Owner = 'event' | 'activity';

/**
 * Takes the write lock on one row for the rest of the transaction, so a check-then-insert (capacity,
 * duplicate e-mail) cannot race another request. PostgreSQL: `SELECT … FOR UPDATE` on that row.
 * SQLite: every write transaction already holds the database's write lock (BEGIN IMMEDIATE on the one
 * connection), so a plain read is enough. Returns false when the row does not exist.
 */
export async function lockRow(trx: Kysely<DB>, table: Owner, id: number): Promise<boolean> {
  const column = table === 'event' ? 'eventID' : 'activityID';
  const forUpdate = isPostgres(trx) ? sql` for no key update` : sql``;
  const { rows } =
    await sql`select 1 as x from ${sql.table(table)} where ${sql.ref(column)} = ${id}${forUpdate}`.execute(trx);
  return rows.length > 0;
}

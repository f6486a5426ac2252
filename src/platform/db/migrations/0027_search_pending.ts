import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Attendees to index again (docs/api/search.md). A registration used to rewrite its attendee's search
// document inside its own transaction; on SQLite every transaction that writes to an FTS5 table flushes
// a new index segment, which made a registration cost about half again as much (~0.4 ms of ~1 ms). Now the
// write only notes who changed here, in its transaction, and the processes that run jobs write the
// documents of many attendees in one transaction (resources/search/pending.ts).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const t = db.schema.createTable('searchPending');
  await (
    isPostgres(db)
      ? t.addColumn('pendingID', 'bigserial', (c) => c.primaryKey())
      : t.addColumn('pendingID', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('eventID', 'integer', (c) => c.notNull())
    .addColumn('personID', 'integer', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('searchPending').execute();
}

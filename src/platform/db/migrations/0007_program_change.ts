import { type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// The program changelog (issue 13): what a write changed in an event's program — a session added,
// removed, moved, given another room, renamed, or its speakers changed — with the values before and
// after, written in the write's own transaction. `version` grows by one with each write that changed
// the event's program (every row of one write shares it); the change log (0005) only says that
// something changed and forgets it after a window, this table is the program's history.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema.createTable('programChange');
  table = isPostgres(db)
    ? table.addColumn('programChangeID', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('programChangeID', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    // No foreign keys: a removed session keeps its history (and a removed event's rows go with it by hand).
    .addColumn('eventID', 'integer', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    // Unix seconds of the write.
    .addColumn('at', 'bigint', (c) => c.notNull())
    .addColumn('activityID', 'bigint', (c) => c.notNull())
    // What changed, comma-separated: added, removed, moved, room, renamed, speakers.
    .addColumn('kinds', 'text', (c) => c.notNull())
    // 1 when the event was visible (and not a template) at the write: only those rows reach readers
    // who are not related to the event, so a session added and removed while the event was a draft
    // never shows its name to the public.
    .addColumn('shown', 'integer', (c) => c.notNull())
    // The session after the write (empty for a removed one) and before it (empty for an added one).
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('location', 'text', (c) => c.notNull())
    .addColumn('dateBegin', 'bigint')
    .addColumn('dateEnd', 'bigint')
    .addColumn('speakers', 'text', (c) => c.notNull())
    .addColumn('oldName', 'text', (c) => c.notNull())
    .addColumn('oldLocation', 'text', (c) => c.notNull())
    .addColumn('oldDateBegin', 'bigint')
    .addColumn('oldDateEnd', 'bigint')
    .addColumn('oldSpeakers', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('program_change_event').on('programChange').columns(['eventID', 'version']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('programChange').execute();
}

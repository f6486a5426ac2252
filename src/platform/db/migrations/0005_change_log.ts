import { type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// The change log (issue 11): every committed write records what it changed, in the same transaction,
// with a monotonic id. It is the one source of cache invalidation, push channels, webhooks and the
// site's freshness: a reader resumes from the last id it saw, within the kept window.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  let change = db.schema.createTable('change');
  change = isPostgres(db)
    ? change.addColumn('changeID', 'bigserial', (c) => c.primaryKey())
    : change.addColumn('changeID', 'integer', (c) => c.primaryKey().autoIncrement());
  await change
    // Unix milliseconds of the write.
    .addColumn('at', 'bigint', (c) => c.notNull())
    // The operation that wrote (`activity.edit`), or the writer outside the API (`seed`, `cli`).
    .addColumn('operation', 'text', (c) => c.notNull())
    // What changed: `activity`, `event`, `event.person`, … (the operation's module).
    .addColumn('kind', 'text', (c) => c.notNull())
    // Where: no foreign keys, so a removed company or event keeps its last changes in the log.
    .addColumn('companyID', 'integer')
    .addColumn('eventID', 'integer')
    .addColumn('objectID', 'bigint')
    .execute();
  await db.schema.createIndex('change_at').on('change').column('at').execute();
  await db.schema.createIndex('change_event').on('change').columns(['eventID', 'changeID']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('change').execute();
}

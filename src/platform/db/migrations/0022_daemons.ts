import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Bulk daemons (issue 17, spec §4.8 daemon.bulk / daemon.find). `daemon`: one bulk operation of an event,
// run as a job item by item through the single operation its target names (docs/api/daemons.md), with
// who asked (and the scope of their token: each item runs with their rights), its items as JSON, and its
// progress: `done` items processed, `applied` of them written, `failed` refused. `done` is moved on in
// the transaction of the item's own write, so a run cut short resumes at the first item not done and
// never applies one twice. `daemonError`: the refusal of each failed item, one `NNN message` line.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const d = db.schema.createTable('daemon');
  await (
    pg
      ? d.addColumn('daemonID', 'serial', (c) => c.primaryKey())
      : d.addColumn('daemonID', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('companyID', 'integer', (c) => c.notNull())
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    // Who asked, and the scope and event of the token they asked with.
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('scopeTargetID', 'integer', (c) => c.notNull().defaultTo(0))
    // What it does (a row of the targets table), the fixed ids, the items' type and the items (JSON).
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('targetID', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('resourceID', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('resourceType', 'text', (c) => c.notNull())
    .addColumn('resources', 'text', (c) => c.notNull())
    .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('applied', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    // Why the whole daemon stopped (the asker lost the event), one line; '' otherwise.
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addColumn('started', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('finished', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('daemon_event').on('daemon').columns(['eventID', 'daemonID']).execute();

  await db.schema
    .createTable('daemonError')
    .addColumn('daemonID', 'integer', (c) => c.notNull().references('daemon.daemonID').onDelete('cascade'))
    // The item's place in `resources` (0-based): one line per item at most.
    .addColumn('item', 'integer', (c) => c.notNull())
    .addColumn('error', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('daemonError_pk', ['daemonID', 'item'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('daemonError').execute();
  await db.schema.dropTable('daemon').execute();
}

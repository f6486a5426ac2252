import { sql, type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Reports (issue 17). `download`: an asynchronous spreadsheet report (spec §2.6
// downloadID, companyID, eventID, memberID, title, event, type, url, date), with what its job needs to
// build it again (the operation, its parameters, who asked and with which scope) and where it is
// (queued / running / ready / failed; expired is read from `expires`). `downloadChunk`: the file, in
// pieces of about 1 MB, kept in the store so every process can reach it; `attempt` tells the pieces of
// a build from those of an earlier one a restart left behind.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const d = db.schema.createTable('download');
  await (
    pg
      ? d.addColumn('downloadID', 'serial', (c) => c.primaryKey())
      : d.addColumn('downloadID', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('companyID', 'integer', (c) => c.notNull().references('company.companyID').onDelete('cascade'))
    // 0: a report of the company, not of one event.
    .addColumn('eventID', 'integer', (c) => c.notNull().defaultTo(0))
    // Who asked (spec memberID), and the scope and event of the token they asked with.
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('targetID', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('title', 'text', (c) => c.notNull())
    // The operation whose answer the report holds (event.person.find), and its parameters as JSON.
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('params', 'text', (c) => c.notNull())
    // The URL's key: 128 random bits. Not the only lock: the file is given only to a token that may
    // still read what the report holds.
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('rows', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('attempt', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .addColumn('finished', 'bigint', (c) => c.notNull().defaultTo(0))
    // Unix seconds after which the file is gone; 0 until ready.
    .addColumn('expires', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('download_company').on('download').columns(['companyID', 'downloadID']).execute();

  await db.schema
    .createTable('downloadChunk')
    .addColumn('downloadID', 'integer', (c) => c.notNull().references('download.downloadID').onDelete('cascade'))
    .addColumn('attempt', 'integer', (c) => c.notNull())
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('data', pg ? 'bytea' : 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('downloadChunk_pk', ['downloadID', 'attempt', 'seq'])
    .execute();

  // The attendee list's default order (event.person.find: lower(name), personID): a report reads the
  // list page by page, and without it each page sorted the whole event again (100,000 attendees: 1,000
  // rows/s; with it, each page is a walk along the index).
  await sql`create index "eventPerson_event_name" on "eventPerson" ("eventID", lower("name"), "personID")`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('eventPerson_event_name').execute();
  await db.schema.dropTable('downloadChunk').execute();
  await db.schema.dropTable('download').execute();
}

import { type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// The customer-relationship feed (issue 17, docs/api/crmfeed.md): at most one link per event to the CRM
// provider the operator configured (CRM_URL). `token` is the event's token at the provider, sealed with
// AES-256-GCM (never stored in clear; `tokenHint` keeps its last four characters for crmfeed.get's mask).
// The community and group the admins chose are stored as the provider named them. The `sync*` columns
// are the progress of company.person.sync's job for this event: `syncRun` numbers the runs (a job of an
// older run stops), `syncCursor` is the last personID the provider acknowledged (a retried job resumes
// after it), `syncPushed` / `syncTotal` count people.

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('crmLink')
    .addColumn('eventID', 'integer', (c) => c.primaryKey().references('event.eventID').onDelete('cascade'))
    .addColumn('companyID', 'integer', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('tokenHint', 'text', (c) => c.notNull().defaultTo(''))
    // Who linked it, when (Unix seconds).
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('linkedAt', 'bigint', (c) => c.notNull())
    .addColumn('communityId', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('communityUrl', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('communityName', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('groupId', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('groupName', 'text', (c) => c.notNull().defaultTo(''))
    // '' (never synced), queued, running, done, failed.
    .addColumn('syncStatus', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('syncRun', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('syncCursor', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('syncPushed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('syncTotal', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('syncQueuedAt', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('syncFinishedAt', 'bigint', (c) => c.notNull().defaultTo(0))
    // The last failure, one plain line naming the provider ('' when none).
    .addColumn('syncError', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('crm_link_company').on('crmLink').column('companyID').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('crmLink').execute();
}

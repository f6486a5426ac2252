import { type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Web Push without an account (issue 13): a browser's push subscription for one event, with the ids of
// the sessions it saved. The endpoint is the push service's address for that browser, p256dh and auth
// its keys (the payload is encrypted with them); a move, a room change or a cancellation of a saved
// session sends it one notification. Deleted by its browser at any time, and once the event has ended.
// The VAPID keys that sign the sends live in `setting` (0001), made on first start.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema.createTable('webPush');
  table = isPostgres(db)
    ? table.addColumn('pushID', 'bigserial', (c) => c.primaryKey())
    : table.addColumn('pushID', 'integer', (c) => c.primaryKey().autoIncrement());
  await table
    // No foreign key: the event-end prune deletes the rows (and a removed event's go with it by hand).
    .addColumn('eventID', 'integer', (c) => c.notNull())
    .addColumn('endpoint', 'text', (c) => c.notNull())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    // The session pages' path on the site the browser registered from (custom domains differ).
    .addColumn('page', 'text', (c) => c.notNull().defaultTo(''))
    // The registering client's network (/24, /48), for the per-address cap; never the full address.
    .addColumn('address', 'text', (c) => c.notNull().defaultTo(''))
    // Unix seconds.
    .addColumn('dateCreated', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('web_push_endpoint').on('webPush').columns(['eventID', 'endpoint']).unique().execute();
  await db.schema.createIndex('web_push_address').on('webPush').columns(['eventID', 'address']).execute();
  // The saved sessions, one row each: a change finds its subscribers through activityID.
  await db.schema
    .createTable('webPushActivity')
    .addColumn('pushID', 'bigint', (c) => c.notNull())
    .addColumn('activityID', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('web_push_activity_pk', ['pushID', 'activityID'])
    .execute();
  await db.schema.createIndex('web_push_activity').on('webPushActivity').columns(['activityID', 'pushID']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('webPushActivity').execute();
  await db.schema.dropTable('webPush').execute();
}

import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Check-in (issue 16). `checklog`: every scan a device sent (checklog.checkIn / checkOut), with the
// answer it got, so the same scan sent again — the same (code, date, entrance, direction), or the same
// client nonce — gets the same answer (a phone that lost its connection sends its queue again).
// `checkState`: one row per person per entrance (activityID 0 = the event's door): inside now or not,
// how many entries. The row's insert decides the one first entry; the live counts read it.
// eventPerson gains an index on (eventID, qrCode): a scan finds its candidate by the code's first
// characters (src/platform/resources/checklog/repository.ts).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const t = db.schema.createTable('checklog');
  await (
    isPostgres(db)
      ? t.addColumn('checklogID', 'bigserial', (c) => c.primaryKey())
      : t.addColumn('checklogID', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('eventID', 'integer', (c) => c.notNull())
    // 0: the event's entrance; else the session's door.
    .addColumn('activityID', 'integer', (c) => c.notNull())
    .addColumn('personID', 'integer', (c) => c.notNull())
    // `in` or `out`.
    .addColumn('direction', 'text', (c) => c.notNull())
    // The scan's time as the device saw it (Unix seconds): with an offline queue it may be long before createdAt.
    .addColumn('date', 'bigint', (c) => c.notNull())
    // first, reentry, out, refused.
    .addColumn('result', 'text', (c) => c.notNull())
    // Why refused ('' otherwise): `not approved`, `already inside`, `not inside`.
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    // The client's nonce; null when it sent none.
    .addColumn('nonce', 'text')
    // `direction:activityID:personID:date`: the same scan twice is one row.
    .addColumn('scanKey', 'text', (c) => c.notNull())
    // The person whose token scanned (the device's signed-in staff member).
    .addColumn('deviceID', 'integer', (c) => c.notNull())
    // Unix ms, when the platform recorded it.
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('checklog_scan').on('checklog').columns(['eventID', 'scanKey']).unique().execute();
  // Nulls are distinct: scans without a nonce never collide here.
  await db.schema.createIndex('checklog_nonce').on('checklog').columns(['eventID', 'nonce']).unique().execute();
  await db.schema.createIndex('checklog_event').on('checklog').columns(['eventID', 'checklogID']).execute();

  await db.schema
    .createTable('checkState')
    .addColumn('eventID', 'integer', (c) => c.notNull())
    .addColumn('activityID', 'integer', (c) => c.notNull())
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('inside', 'integer', (c) => c.notNull())
    .addColumn('entries', 'integer', (c) => c.notNull())
    // Unix seconds (device time) of the first entry and of the last scan that changed the row.
    .addColumn('firstAt', 'bigint', (c) => c.notNull())
    .addColumn('lastAt', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('checkState_pk', ['eventID', 'activityID', 'personID'])
    .execute();
  await db.schema
    .createIndex('checkState_inside')
    .on('checkState')
    .columns(['eventID', 'activityID', 'inside'])
    .execute();

  await db.schema.createIndex('eventPerson_event_qrCode').on('eventPerson').columns(['eventID', 'qrCode']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('eventPerson_event_qrCode').execute();
  await db.schema.dropTable('checkState').execute();
  await db.schema.dropTable('checklog').execute();
}

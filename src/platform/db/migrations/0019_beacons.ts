import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Beacons (issue 17, docs/api/beacons.md). `beacon`: a physical Bluetooth beacon of a company (its
// iBeacon identity uuid/major/minor). `beaconEvent`: a beacon bound to an event (spec §2.6 beaconEventID,
// eventID, beaconID, type, range, extra). `beaconAction`: what attendees near a bound beacon are shown
// (a message or a link; the spec does not show it: Podium's design). `beaconLog`: a person met an action.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

function withSerial(db: Kysely<any>, table: string, column: string) {
  const t = db.schema.createTable(table);
  return isPostgres(db)
    ? t.addColumn(column, 'serial', (c) => c.primaryKey())
    : t.addColumn(column, 'integer', (c) => c.primaryKey().autoIncrement());
}

export async function up(db: Kysely<any>): Promise<void> {
  await withSerial(db, 'beacon', 'beaconID')
    .addColumn('companyID', 'integer', (c) => c.notNull().references('company.companyID').onDelete('cascade'))
    // iBeacon proximity UUID, lower case with dashes.
    .addColumn('uuid', 'text', (c) => c.notNull())
    .addColumn('major', 'integer', (c) => c.notNull())
    .addColumn('minor', 'integer', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('beacon_identity')
    .on('beacon')
    .columns(['companyID', 'uuid', 'major', 'minor'])
    .unique()
    .execute();

  await withSerial(db, 'beaconEvent', 'beaconEventID')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('beaconID', 'integer', (c) => c.notNull().references('beacon.beaconID').onDelete('cascade'))
    // What the beacon marks in the event: entrance, room, booth, stand, other.
    .addColumn('type', 'text', (c) => c.notNull().defaultTo('other'))
    // Proximity at which its actions show: immediate, near, far.
    .addColumn('range', 'text', (c) => c.notNull().defaultTo('near'))
    // A note of the organizer (where it is placed).
    .addColumn('extra', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('beacon_event_beacon')
    .on('beaconEvent')
    .columns(['eventID', 'beaconID'])
    .unique()
    .execute();

  await withSerial(db, 'beaconAction', 'beaconActionID')
    .addColumn('beaconEventID', 'integer', (c) =>
      c.notNull().references('beaconEvent.beaconEventID').onDelete('cascade'),
    )
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    // message or url.
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('url', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('beacon_action_event').on('beaconAction').columns(['eventID', 'beaconEventID']).execute();

  await withSerial(db, 'beaconLog', 'beaconLogID')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    .addColumn('beaconEventID', 'integer', (c) =>
      c.notNull().references('beaconEvent.beaconEventID').onDelete('cascade'),
    )
    .addColumn('beaconActionID', 'integer', (c) =>
      c.notNull().references('beaconAction.beaconActionID').onDelete('cascade'),
    )
    .addColumn('personID', 'integer', (c) => c.notNull().references('person.personID').onDelete('cascade'))
    .addColumn('date', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('beacon_log_action_person')
    .on('beaconLog')
    .columns(['beaconActionID', 'personID', 'date'])
    .execute();
  await db.schema.createIndex('beacon_log_event').on('beaconLog').columns(['eventID', 'beaconEventID']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('beaconLog').execute();
  await db.schema.dropTable('beaconAction').execute();
  await db.schema.dropTable('beaconEvent').execute();
  await db.schema.dropTable('beacon').execute();
}

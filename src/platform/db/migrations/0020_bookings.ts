import { type Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Bookings (issue 16, docs/api/bookings.md): an event's item reservations (spec §2.6 "Booking": eventID,
// value, source, used; §4.9 event.booking.create's fields). `value` is the booking's generated
// reference, unique on the platform (event.booking.get reads it); `source` the form it came from.
// One booking per contact e-mail and event (the unique index makes double booking impossible under
// concurrency on both stores); `used` flips 0 → 1 once, by a conditional update.
// `eventBookingStock`: how many of an item the event can hand out (`total`) and how many bookings
// took (`booked`); a booking takes its counts by one conditional update per item (booked + n <= total)
// in its transaction, so concurrent bookings never take more than the stock. No row: no limit.

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const t = db.schema.createTable('eventBooking');
  await (
    isPostgres(db)
      ? t.addColumn('bookingID', 'bigserial', (c) => c.primaryKey())
      : t.addColumn('bookingID', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    // 10 characters of Crockford's base32 (50 random bits).
    .addColumn('value', 'text', (c) => c.notNull().unique())
    // 'api' (event.booking.create); other forms may come.
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('api'))
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    // Unix seconds of the use (0: fresh).
    .addColumn('usedDate', 'bigint', (c) => c.notNull().defaultTo(0))
    // The contact who booked.
    .addColumn('name', 'text', (c) => c.notNull())
    // Lower case.
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('telephone', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('company', 'text', (c) => c.notNull().defaultTo(''))
    // The items: counts of devices and lines, and switches 0/1.
    .addColumn('dataCollectors', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('liveSupport', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('extraPhone', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('extraLive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('automaticReport', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('beacons', 'integer', (c) => c.notNull().defaultTo(0))
    // The pricing plan or quote agreed (free text).
    .addColumn('pricing', 'text', (c) => c.notNull().defaultTo(''))
    // Who booked (the token's person).
    .addColumn('personID', 'integer', (c) => c.notNull())
    .addColumn('dateCreated', 'bigint', (c) => c.notNull())
    .addUniqueConstraint('event_booking_email', ['eventID', 'email'])
    .execute();

  await db.schema
    .createTable('eventBookingStock')
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    // dataCollectors, liveSupport, extraPhone, extraLive, beacons.
    .addColumn('item', 'text', (c) => c.notNull())
    .addColumn('total', 'integer', (c) => c.notNull())
    .addColumn('booked', 'integer', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('event_booking_stock_pk', ['eventID', 'item'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('eventBookingStock').execute();
  await db.schema.dropTable('eventBooking').execute();
}

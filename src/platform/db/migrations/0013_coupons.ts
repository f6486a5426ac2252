import type { Kysely } from 'kysely';

// Frozen in time: this file must never import application code, and must never change once landed.
//
// Coupons (issue 16). `coupon`: an event's discount code (spec §2.6 couponID, eventID, code, discount,
// used) with Podium's use limit and expiry. `eventTicket`: an event's ticket price, in a table of its own
// rather than a column of `event` (event records are read whole). eventPerson gains `discount`: the
// percentage a registration's coupon took off (0 without one).

function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter.constructor.name === 'PostgresAdapter';
}

export async function up(db: Kysely<any>): Promise<void> {
  const t = db.schema.createTable('coupon');
  await (
    isPostgres(db)
      ? t.addColumn('couponID', 'serial', (c) => c.primaryKey())
      : t.addColumn('couponID', 'integer', (c) => c.primaryKey().autoIncrement())
  )
    .addColumn('eventID', 'integer', (c) => c.notNull().references('event.eventID').onDelete('cascade'))
    // 10 characters of Crockford's base32: 50 random bits.
    .addColumn('code', 'text', (c) => c.notNull())
    // Percent off, 0–100.
    .addColumn('discount', 'integer', (c) => c.notNull())
    .addColumn('used', 'integer', (c) => c.notNull().defaultTo(0))
    // Most uses; 0: no limit.
    .addColumn('maxUses', 'integer', (c) => c.notNull().defaultTo(0))
    // Unix seconds after which it is refused; 0: never.
    .addColumn('expires', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('createdAt', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('coupon_event_code').on('coupon').columns(['eventID', 'code']).unique().execute();

  await db.schema
    .createTable('eventTicket')
    .addColumn('eventID', 'integer', (c) => c.primaryKey().references('event.eventID').onDelete('cascade'))
    // In the currency's minor unit (cents); 0: free.
    .addColumn('price', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo(''))
    .execute();

  await db.schema
    .alterTable('eventPerson')
    .addColumn('discount', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('eventPerson').dropColumn('discount').execute();
  await db.schema.dropTable('eventTicket').execute();
  await db.schema.dropTable('coupon').execute();
}

import { sql, type Insertable, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { DB, EventBookingTable } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import { bookingWire } from '../../../shared/wire/booking.ts';
import { recordOf, type RecordOf } from '../records.ts';
import { newCode, normalizeCode } from '../coupon/repository.ts';

// The store of bookings (migration 0020, docs/api/bookings.md): an event's item reservations.

export type BookingRow = Selectable<EventBookingTable>;
export type BookingRecord = RecordOf<typeof bookingWire>;
const booking = recordOf(bookingWire);

const num = (r: BookingRow): BookingRow => ({ ...r, bookingID: Number(r.bookingID), usedDate: Number(r.usedDate), dateCreated: Number(r.dateCreated) }); // prettier-ignore

/** A new booking reference: the coupons' code (10 characters of Crockford's base32, 50 random bits). */
export const newReference = newCode;
/** A typed reference as stored (case, dashes and look-alike letters do not matter). */
export const normalizeReference = normalizeCode;

export function bookingRecord(r: BookingRow): BookingRecord {
  return booking({
    bookingID: r.bookingID,
    eventID: r.eventID,
    value: r.value,
    source: r.source,
    used: r.used,
    usedDate: r.usedDate,
    name: r.name,
    email: r.email,
    telephone: r.telephone,
    company: r.company,
    dataCollectors: r.dataCollectors,
    liveSupport: r.liveSupport,
    extraPhone: r.extraPhone,
    extraLive: r.extraLive,
    automaticReport: r.automaticReport,
    beacons: r.beacons,
    pricing: r.pricing,
    personID: r.personID,
    date: r.dateCreated,
  });
}

export type NewBooking = Omit<Insertable<EventBookingTable>, 'bookingID' | 'used' | 'usedDate'>;

/**
 * Adds a booking; undefined when the event has one for that e-mail already, or the reference is taken
 * (the caller tells which). The unique indexes decide, so two concurrent bookings never both pass.
 */
export async function insertBooking(db: Kysely<DB>, values: NewBooking): Promise<BookingRow | undefined> {
  const row = await db
    .insertInto('eventBooking')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && num(row);
}

export async function bookingByEmail(db: Kysely<DB>, eventID: number, email: string): Promise<BookingRow | undefined> {
  const row = await db
    .selectFrom('eventBooking')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('email', '=', email)
    .executeTakeFirst();
  return row && num(row);
}

/** The event's booking of that reference (another event's reads as none). */
export async function bookingByValue(db: Kysely<DB>, eventID: number, value: string): Promise<BookingRow | undefined> {
  const row = await db
    .selectFrom('eventBooking')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('value', '=', normalizeReference(value))
    .executeTakeFirst();
  return row && num(row);
}

/** Marks a fresh booking used: one conditional update, so of two concurrent uses only one passes. */
export async function useBooking(db: Kysely<DB>, bookingID: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('eventBooking')
    .set({ used: 1, usedDate: now })
    .where('bookingID', '=', bookingID)
    .where('used', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export type Selection = 'all' | 'fresh' | 'used';

/** The event's bookings, newest first, by selection and a part of the name, e-mail, company or reference. */
export function findBookings(
  db: Kysely<DB>,
  eventID: number,
  o: { selection: Selection; query?: string; page: Page },
): Promise<Paged<BookingRecord>> {
  let q = db.selectFrom('eventBooking').selectAll().where('eventID', '=', eventID);
  if (o.selection !== 'all') q = q.where('used', '=', o.selection === 'used' ? 1 : 0);
  if (o.query) {
    const like = `%${o.query.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    q = q.where((w) =>
      w.or(
        (['name', 'email', 'company', 'value'] as const).map(
          (c) => sql<SqlBool>`lower(${sql.ref(c)}) like ${like} escape '\\'`,
        ),
      ),
    );
  }
  return readPage(db, q.orderBy('bookingID', 'desc'), o.page, (rows) => rows.map((r) => bookingRecord(num(r))));
}

/** The items whose stock an event may limit (the counts of a booking). */
export const STOCK_ITEMS = ['dataCollectors', 'liveSupport', 'extraPhone', 'extraLive', 'beacons'] as const;
export type StockItem = (typeof STOCK_ITEMS)[number];

/**
 * Takes `n` of an item from the event's stock: one conditional update (booked + n <= total), so
 * concurrent bookings never take more than the stock. True when taken or when the item has no limit.
 */
export async function takeStock(db: Kysely<DB>, eventID: number, item: StockItem, n: number): Promise<boolean> {
  const r = await db
    .updateTable('eventBookingStock')
    .set((e) => ({ booked: e('booked', '+', n) }))
    .where('eventID', '=', eventID)
    .where('item', '=', item)
    .where((e) => e(e('booked', '+', n), '<=', e.ref('total')))
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) > 0) return true;
  return (await stockOf(db, eventID, item)) === undefined;
}

export async function stockOf(
  db: Kysely<DB>,
  eventID: number,
  item: StockItem,
): Promise<{ total: number; booked: number } | undefined> {
  return db
    .selectFrom('eventBookingStock')
    .select(['total', 'booked'])
    .where('eventID', '=', eventID)
    .where('item', '=', item)
    .executeTakeFirst();
}

/** Sets an item's stock, unless bookings took more than `total` already (false then). */
export async function setStock(db: Kysely<DB>, eventID: number, item: StockItem, total: number): Promise<boolean> {
  await db
    .insertInto('eventBookingStock')
    .values({ eventID, item, total })
    .onConflict((oc) => oc.columns(['eventID', 'item']).doNothing())
    .execute();
  const r = await db
    .updateTable('eventBookingStock')
    .set({ total })
    .where('eventID', '=', eventID)
    .where('item', '=', item)
    .where('booked', '<=', total)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

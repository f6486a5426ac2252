import { z } from 'zod';
import { b, defineOperation, pageOf, pageParams, q, qOpt, LEVEL, type AnyOperation } from '../../../kernel/table.ts';
import { bit, email, id, text } from '../../../schemas.ts';
import { ApiError, conflict, notFound } from '../../../errors.ts';
import { bookingStockWire, bookingWire } from '../../../../shared/wire/booking.ts';
import {
  bookingByEmail,
  bookingByValue,
  bookingRecord,
  findBookings,
  insertBooking,
  newReference,
  setStock,
  stockOf,
  takeStock,
  useBooking,
  STOCK_ITEMS,
} from '../repository.ts';

// Bookings (spec §4.9, §2.6 Booking; issue 16; docs/api/bookings.md): an event's item reservations.

const count = z
  .string()
  .regex(/^\d{1,5}$/, 'must be an integer from 0 to 10000')
  .transform(Number)
  .refine((n) => n <= 10_000, 'must be an integer from 0 to 10000');
const line = (max: number) => text(max).transform((v) => v.trim().replace(/\s+/g, ' '));
const name = line(200).refine((v) => v !== '', 'cannot be blank');
const reference = text(40).refine((v) => v.trim() !== '', 'cannot be blank');

/** Spec §4.9: reserves items for the event. */
const bookingCreate = defineOperation({
  name: 'event.booking.create',
  summary:
    'Books items for an event (admins): a contact and the counts reserved; answers the booking with its generated reference (value). One booking per contact e-mail and event.',
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    name: b(name, "the contact's name"),
    email: b(
      email.transform((v) => v.toLowerCase()),
      "the contact's e-mail (one booking per e-mail and event)",
    ),
    telephone: b(line(40), "the contact's telephone"),
    company: b(line(200), "the contact's company"),
    dataCollectors: b(count, 'data-collector devices, 0 to 10000'),
    liveSupport: b(count, 'live-support staff, 0 to 10000'),
    extraPhone: b(count, 'extra phone lines, 0 to 10000'),
    extraLive: b(count, 'extra live streams, 0 to 10000'),
    automaticReport: b(bit, '1 books the automatic report'),
    beacons: b(count, 'beacons, 0 to 10000'),
    pricing: b(line(200), 'the pricing plan or quote agreed (free text)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  answer: bookingWire,
  async handler(ctx, p) {
    const { eventID, ...fields } = p;
    // 50 random bits: a second draw is for a reference taken already, which practically never happens.
    for (let attempt = 0; attempt < 3; attempt++) {
      const row = await insertBooking(ctx.db, {
        ...fields,
        eventID,
        value: newReference(),
        source: 'api',
        personID: ctx.caller!.personID,
        dateCreated: ctx.now,
      });
      if (row) {
        // Each count comes out of the event's stock of that item, in this transaction: a refusal undoes the booking.
        for (const item of STOCK_ITEMS) {
          if (p[item] > 0 && !(await takeStock(ctx.db, eventID, item, p[item]))) {
            const left = await stockOf(ctx.db, eventID, item);
            throw conflict(`not enough ${item} left: ${left ? left.total - left.booked : 0} of ${left?.total ?? 0}`);
          }
        }
        return [bookingRecord(row)];
      }
      if (await bookingByEmail(ctx.db, eventID, p.email))
        throw conflict('this e-mail has a booking for this event already');
    }
    throw new ApiError(503, 'could not draw a free booking reference, try again');
  },
});

/** Spec §4.9: the event's bookings. */
const bookingFind = defineOperation({
  name: 'event.booking.find',
  summary: "Lists an event's bookings (admins), newest first: all, fresh (not used) or used; Q query filters.",
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    selection: q(z.enum(['all', 'fresh', 'used'], 'must be all, fresh or used'), 'all, fresh (not used) or used'),
    query: qOpt(text(200), 'part of the name, e-mail, company or reference'),
    ...pageParams,
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: false,
  answer: bookingWire,
  handler: (ctx, p) => findBookings(ctx.db, p.eventID, { selection: p.selection, query: p.query, page: pageOf(p) }),
});

/** Spec §4.9: one booking by its reference. */
const bookingGet = defineOperation({
  name: 'event.booking.get',
  summary: 'Reads one booking of an event (admins) by its reference (value; case and dashes do not matter).',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    value: q(reference, "the booking's reference"),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: false,
  answer: bookingWire,
  async handler(ctx, p) {
    const row = await bookingByValue(ctx.db, p.eventID, p.value);
    if (!row) throw notFound('booking');
    return [bookingRecord(row)];
  },
});

/** Podium extension: a booking's items were handed over; a booking is used once. */
const bookingUse = defineOperation({
  name: 'event.booking.use',
  summary: 'Marks a booking used (admins), once: a second use is refused with 409 (Podium extension).',
  methods: ['GET'],
  params: {
    eventID: q(id, 'the event'),
    value: q(reference, "the booking's reference"),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  answer: bookingWire,
  async handler(ctx, p) {
    const row = await bookingByValue(ctx.db, p.eventID, p.value);
    if (!row) throw notFound('booking');
    if (!(await useBooking(ctx.db, row.bookingID, ctx.now))) throw conflict('booking was used already');
    return [bookingRecord({ ...row, used: 1, usedDate: ctx.now })];
  },
});

/** Podium extension: how many of an item the event can hand out (no stock set: no limit). */
const bookingStock = defineOperation({
  name: 'event.booking.stock',
  summary: `Sets how many of an item bookings of the event may take (admins; Podium extension). Items: ${STOCK_ITEMS.join(', ')}.`,
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    item: q(z.enum(STOCK_ITEMS, `must be one of ${STOCK_ITEMS.join(', ')}`), `one of ${STOCK_ITEMS.join(', ')}`),
    value: b(
      z
        .string()
        .regex(/^\d{1,7}$/, 'must be an integer from 0 to 1000000')
        .transform(Number)
        .refine((n) => n <= 1_000_000, 'must be an integer from 0 to 1000000'),
      'the stock, 0 to 1000000 (not below what bookings took)',
    ),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  extension: true,
  writes: true,
  answer: bookingStockWire,
  async handler(ctx, p) {
    if (!(await setStock(ctx.db, p.eventID, p.item, p.value))) {
      const s = await stockOf(ctx.db, p.eventID, p.item);
      throw conflict(`bookings took ${s?.booked ?? 0} ${p.item} already`);
    }
    const s = (await stockOf(ctx.db, p.eventID, p.item))!;
    return [{ eventID: String(p.eventID), item: p.item, total: String(s.total), booked: String(s.booked) }];
  },
});

/** Bookings (issue 16, docs/api/bookings.md). */
export const bookingOperations: readonly AnyOperation[] = [
  bookingCreate,
  bookingFind,
  bookingGet,
  bookingUse,
  bookingStock,
];

import { z } from 'zod';
import { id, s } from './values.ts';

/**
 * A booking: an item reservation of an event (spec §2.6 eventID, value, source, used; the items of
 * §4.9 event.booking.create; docs/api/bookings.md).
 */
export const bookingWire = z.object({
  bookingID: id,
  eventID: id,
  /** The booking's reference (10 characters of Crockford's base32): event.booking.get reads it. */
  value: z.string(),
  /** Where it came from: `api` (event.booking.create). */
  source: s,
  /** '1' once used (event.booking.use), else '0' (fresh). */
  used: z.string(),
  /** Unix seconds of the use; '0' while fresh. */
  usedDate: s,
  name: s,
  email: s,
  telephone: s,
  company: s,
  /** Counts of devices and lines reserved. */
  dataCollectors: s,
  liveSupport: s,
  extraPhone: s,
  extraLive: s,
  /** '1' when automatic reports are booked. */
  automaticReport: s,
  beacons: s,
  pricing: s,
  /** The admin who booked. */
  personID: id,
  /** Unix seconds. */
  date: s,
});
export type Booking = z.infer<typeof bookingWire>;

/** An item's stock in an event (event.booking.stock, docs/api/bookings.md). */
export const bookingStockWire = z.object({
  eventID: id,
  /** dataCollectors, liveSupport, extraPhone, extraLive or beacons. */
  item: z.string(),
  /** How many the event can hand out. */
  total: z.string(),
  /** How many bookings took. */
  booked: z.string(),
});
export type BookingStock = z.infer<typeof bookingStockWire>;

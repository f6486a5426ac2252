import { z } from 'zod';
import { id, s } from './values.ts';

/**
 * One scan as checklog.checkIn / checkOut answer it (docs/api/checkin.md): who it is and what the door
 * does. `result`: `first` (first entry through this door), `reentry`, `out` (left), `refused` (see
 * `reason`: `unknown code`, `cancelled` (the code of a registration since cancelled), `not approved`,
 * `already inside`, `not inside`).
 */
export const checkScanWire = z.object({
  /** '' for an unknown or cancelled code (nothing is logged of it). */
  checklogID: s,
  eventID: id,
  /** '0': the event's entrance. */
  activityID: z.string(),
  /** '' for an unknown or cancelled code. */
  personID: s,
  name: s,
  firstName: s,
  lastName: s,
  /** `in` or `out`. */
  direction: z.string(),
  result: z.string(),
  reason: s,
  /** The scan's time on the device (Unix seconds). */
  date: z.string(),
  nonce: s,
  /** '1' when the same scan (code, date, door, direction — or nonce) was answered before: this is that answer again. */
  replayed: z.string(),
});
export type CheckScan = z.infer<typeof checkScanWire>;

/** checklog.stats: one row per door ('0' the event's entrance, then each session with scans). */
export const checkStatsWire = z.object({
  eventID: id,
  activityID: z.string(),
  /** The session's name; '' for the event's entrance. */
  name: s,
  /** People inside now, across every device. */
  inside: z.string(),
  /** People who entered at least once. */
  checkedIn: z.string(),
  /** Entries, re-entries included. */
  entries: z.string(),
  /**
   * Refused scans: not approved, not inside (checkOut). Unknown codes are not logged, and a person already
   * inside scanned in again (`already inside`) is a duplicate of a valid ticket, not a refusal: not counted.
   */
  refused: z.string(),
  /**
   * Second scans of someone already inside (`already inside`): a valid ticket scanned twice, counted apart
   * ('' from a platform without the extension).
   */
  repeats: s,
  /** Approved attendees of the event, level User (not staff or other members only); the entrance's row, '' for a session. */
  approved: s,
  /**
   * Of those approved attendees, how many are inside now (`inside` also counts staff and presenters scanned
   * in); the entrance's row, '' for a session.
   */
  attendeesInside: s,
});
export type CheckStats = z.infer<typeof checkStatsWire>;

/** checklog.checkedIn: a person inside a door now. */
export const checkedInWire = z.object({
  personID: id,
  name: s,
  firstName: s,
  lastName: s,
  entries: z.string(),
  /** Unix seconds (device time): first entry, and the last entry. */
  firstAt: z.string(),
  lastAt: z.string(),
});

/** checklog.find: one logged scan with the attendee's name. */
export const checklogWire = z.object({
  checklogID: id,
  eventID: id,
  activityID: z.string(),
  personID: id,
  name: s,
  firstName: s,
  lastName: s,
  email: s,
  direction: z.string(),
  result: z.string(),
  reason: s,
  date: z.string(),
  nonce: s,
  /** The person whose token scanned. */
  deviceID: id,
  /** Unix seconds, when the platform recorded it. */
  createdAt: z.string(),
});

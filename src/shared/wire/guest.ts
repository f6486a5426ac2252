import { z } from 'zod';
import { id, s } from './values.ts';

/**
 * A guest an attendee brings (spec §2.6 eventGuestID, personID, hostID, name, email, date; docs/api/guests.md).
 * A guest is not a person of the platform: `personID` is the guest's own id in the event, the same
 * number as `eventGuestID` (the spec's guest operations name the guest by personID).
 */
export const guestWire = z.object({
  eventGuestID: id,
  eventID: id,
  personID: id,
  /** The attendee who brings the guest. */
  hostID: id,
  name: s,
  /** '' when none was given. */
  email: s,
  /** Unix seconds. */
  date: s,
});
export type Guest = z.infer<typeof guestWire>;

// An address on an event's invitee list (event.invite.find, .bind, .dismiss; Podium extension).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { s } from './values.ts';

export const inviteWire = z.object({
  eventID: s,
  /** The invited address (lower case): the invite itself. */
  email: s,
  dateCreated: s,
  /** 1 when an attendee of the event registered with the address. */
  registered: s,
  /** That attendee ("0" when none). */
  personID: s,
});
export type Invite = z.infer<typeof inviteWire>;

// The registration form of an event (form.get, form.edit): its settings, whether it takes
// registrations now, its custom fields and the attendee types a registrant may pick.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s, strings } from './values.ts';
import { feedbackWire } from './feedback.ts';

export const formWire = z.object({
  eventID: id,
  name: s,
  enrollmentOpen: s,
  /** 1 when the form takes a registration now; else `reason` says why not. */
  acceptsRegistrations: s,
  reason: s,
  inviteRequired: s,
  capacity: s,
  /** Places left ('' when the event has no capacity). */
  remaining: s,
  /** 1: the form records an application, which an admin approves (docs/api/applicants.md). */
  approvalRequired: s,
  /** Guests each attendee may bring (0: none; docs/api/guests.md). */
  guestsForMember: s,
  ...strings('waitingList', 'enrollmentBegin', 'enrollmentEnd', 'consent', 'timezone', 'language'),
  /** The custom fields, in form order. */
  fields: z.array(feedbackWire.omit({ answers: true })).default([]),
  /** The attendee types (tags of kind attendee) a registrant may pick. */
  tags: z.array(z.object({ tagID: id, name: s, color: s })).default([]),
});
export type RegistrationForm = z.infer<typeof formWire>;

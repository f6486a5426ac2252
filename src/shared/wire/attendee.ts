// The attendee: a person within an event (spec §2.3), as event.person.find, event.person.get,
// .bind, .operate, .print and .dismiss answer it, and form.respondRegistration with its token.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';
import { sessionTagWire } from './activity.ts';

/** An answer to a custom field of the registration form (fullProfile=1). */
export const attendeeFeedbackWire = z.object({ feedbackID: id, name: s, value: s });

/**
 * The full attendee record. Every profile field is the event's own (what the person gave to this
 * event). To an event-scope reader of another attendee, username, qrCode, nfc, message and
 * assistantEmail read '', and for a private attendee email, telephone and the social ids too.
 */
export const attendeeWire = z.object({
  username: s,
  /** The person's account ids: on their own record only ('' for everyone else). */
  socialAID: s,
  socialBID: s,
  socialCID: s,
  email: s,
  telephone: s,
  qrCode: s,
  ebQrCode: s,
  nfc: s,
  eventID: s,
  personID: id,
  /** The registration's own id. */
  enrollmentID: s,
  firstName: s,
  lastName: s,
  name: s,
  personName: s,
  role: s,
  company: s,
  summary: s,
  image: s,
  /** As given, else "role, company". */
  headline: s,
  personHeadline: s,
  city: s,
  socialA: s,
  socialB: s,
  socialC: s,
  socialD: s,
  website: s,
  position: s,
  /** Permission level (spec §5); on one's own record the level the token acts with. */
  level: s,
  ebUserID: s,
  mkUserID: s,
  /** −1 not registered, 0 registered and not approved, 1 approved (spec §3). */
  approved: s,
  paid: s,
  rsvp: s,
  present: s,
  message: s,
  private: s,
  meetingQuotaID: s,
  meetingAutoConfirm: s,
  engagement: s,
  language: s,
  /** language, else the event's. */
  personLanguage: s,
  origin: s,
  crmAID: s,
  crmAType: s,
  crmBID: s,
  enrollmentDate: s,
  updatedDate: s,
  meetingQuotaName: s,
  meetingQuotaAmount: s,
  device: s,
  downloaded: s,
  favorite: s,
  ally: s,
  isSponsor: s,
  prints: s,
  profileID: s,
  ticketID: s,
  assistantEmail: s,
  ticketName: s,
  ticketEntrance: s,
  tags: z.array(sessionTagWire).default([]),
  /** The event's speaker row of the person ('' when none). */
  speakerID: s,
  /** fullProfile=1 (and event.person.get) only: the person's time zone, on their own record. */
  timezone: z.string().optional(),
  /** fullProfile=1 (and event.person.get) only: the custom-field answers. */
  feedbacks: z.array(attendeeFeedbackWire).optional(),
});
export type Attendee = z.infer<typeof attendeeWire>;

/** The short attendee shape of spec §2.3's generic example: any full record reads as it. */
export const attendeeShortWire = attendeeWire.pick({
  personID: true,
  name: true,
  email: true,
  headline: true,
  image: true,
  telephone: true,
  city: true,
  socialAID: true,
  socialBID: true,
  enrollmentID: true,
  approved: true,
  level: true,
  paid: true,
  present: true,
  private: true,
});
export type AttendeeShort = z.infer<typeof attendeeShortWire>;

/**
 * form.respondRegistration: the attendee record plus the event-scope `tokenID` of login=1 ('' else)
 * and `duplicate` 1 when the person was already registered (then the record holds only what the call
 * sent and the ids).
 */
export const registrationWire = attendeeWire.extend({ tokenID: s, duplicate: s });
export type Registration = z.infer<typeof registrationWire>;

// The attendee: a person within an event (spec §2.3), as event.person.find, event.person.get,
// .bind, .operate, .print and .dismiss answer it, and form.respondRegistration with its token.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, idOrBlank, s, strings } from './values.ts';
import { sessionTagWire } from './activity.ts';
import { guestWire } from './guest.ts';

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
  ...strings('socialBID', 'socialCID', 'email', 'telephone', 'qrCode', 'ebQrCode', 'nfc', 'eventID'),
  personID: id,
  /** The registration's own id. */
  enrollmentID: s,
  ...strings('firstName', 'lastName', 'name', 'personName', 'role', 'company', 'summary', 'image'),
  /** As given, else "role, company". */
  headline: s,
  ...strings('personHeadline', 'city', 'socialA', 'socialB', 'socialC', 'socialD', 'website', 'position'),
  /** Permission level (spec §5); on one's own record the level the token acts with. */
  level: s,
  ebUserID: s,
  mkUserID: s,
  /** −1 not registered, 0 registered and not approved, 1 approved (spec §3). */
  approved: s,
  ...strings(
    'paid',
    'rsvp',
    'present',
    'message',
    'private',
    'meetingQuotaID',
    'meetingAutoConfirm',
    'engagement',
    'language',
  ),
  /** language, else the event's. */
  personLanguage: s,
  ...strings(
    'origin',
    'crmAID',
    'crmAType',
    'crmBID',
    'enrollmentDate',
    'updatedDate',
    'meetingQuotaName',
    'meetingQuotaAmount',
    'device',
    'downloaded',
    'favorite',
    'ally',
    'isSponsor',
    'prints',
    'profileID',
    'ticketID',
    'assistantEmail',
    'ticketName',
    'ticketEntrance',
  ),
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
 * sent and the ids — to the person and the event's admins; to anyone else the ids and state are '',
 * personID included), and the guests it bound.
 */
export const registrationWire = attendeeWire.extend({
  /** '' on a repeat (duplicate 1) sent by someone who is not the person nor an admin of the event. */
  personID: idOrBlank,
  tokenID: s,
  duplicate: s,
  /** Podium extension: the guests this call bound to the new attendee (B guests; [] else). */
  guests: z.array(guestWire),
  /** Podium extension: 1 when this call queued the confirmation e-mail (docs/messaging.md), else 0. */
  emailed: s,
});
export type Registration = z.infer<typeof registrationWire>;

// The rest of messaging (issue 15): an event's senders (spec §2.6 "Event sender"), the address checks
// (spec "E-mail sanity entry") and event.sendSMS. Every value is a string on the wire (spec §1.2).

import { z } from 'zod';
import { id, s, strings } from './values.ts';

export const senderWire = z.object({
  senderID: id,
  ...strings('eventID', 'personID', 'senderName', 'senderEmail'),
  /**
   * The last DNS check as JSON: {"owner":…, "spf":…, "dkim":…, "dmarc":…}, each {status: ok|missing|wrong|error,
   * name, found, expected, reason}; '' before the first check.
   */
  senderDNS: s,
  /** '' never checked, 'checking', 'verified' (the company's record, SPF, DKIM and DMARC ok: used as From), 'unverified'. */
  state: s,
  /** Unix seconds of the last check (0: never). */
  checkedDate: s,
  /** The person's name and username. */
  ...strings('name', 'username'),
});
export type Sender = z.infer<typeof senderWire>;

export const sanityWire = z.object({
  eventSanityID: id,
  ...strings('eventID', 'email'),
  /** 1 deliverable as far as checks tell, 0 not. */
  clean: s,
  /** '' or syntax, no-mx, disposable, role, dns-error. */
  reason: s,
  /** 1: an organizer set `clean` (event.sanity.operate); checks keep their word. */
  manual: s,
  date: s,
});

export const smsWire = z.object({
  smsLogID: id,
  ...strings('eventID', 'telephone', 'status'),
});

// Custom e-mails of an event (event.email.*) and the e-mail log (spec §2.6 "Custom e-mail", "E-mail
// log"). Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const eventEmailWire = z.object({
  eventEmailID: id,
  eventID: s,
  /** The id event.email.edit and event.email.try name it by (spec: `source`). */
  source: s,
  subject: s,
  /** Sanitized HTML with merge fields ({{firstName}}; docs/messaging.md). */
  text: s,
  /** The list it goes to; 0: everyone in the event. */
  listID: s,
  /** Unix seconds. */
  date: s,
  /** Recipients sent to so far. */
  sent: s,
  /** '' (a draft), 'dispatching' or 'dispatched'. */
  state: s,
  /** 1: each message carries an open-tracking pixel and opens are counted (off by default). */
  tracking: s,
});
export type EventEmail = z.infer<typeof eventEmailWire>;

export const emailLogWire = z.object({
  emailLogID: id,
  eventID: s,
  /** The recipient's personID (spec: memberID). */
  memberID: s,
  /** The custom e-mail (spec: listEmailID); 0 for a registration confirmation. */
  listEmailID: s,
  messageID: s,
  from: s,
  to: s,
  subject: s,
  /** queued, sending, sent, failed (hard bounce), skipped (suppressed), unknown (a worker died mid-send). */
  status: s,
  reason: s,
  opens: s,
  /** Unix seconds. */
  date: s,
  /** 'confirmation', 'custom' or 'test'. */
  kind: s,
});
export type EmailLog = z.infer<typeof emailLogWire>;

/** An address on an event's suppression list (spec §2.6 "E-mail blacklist entry"). */
export const blacklistWire = z.object({
  eventBlacklistID: id,
  eventID: s,
  email: s,
  /** 'bounce: …' (an SMTP 5xx at send), 'unsubscribe', or 'webhook: …' (a reported bounce). */
  reason: s,
  /** Unix seconds. */
  date: s,
});
export type BlacklistEntry = z.infer<typeof blacklistWire>;

// The person: answers of person.signIn, person.edit and the password operations (person.confirm,
// person.recover).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s, strings } from './values.ts';

/**
 * person.confirm (Podium extension): whose password was set. The answer also holds a new system-scope
 * tokenID; it is left out here on purpose: the site has no sign-in, so it never keeps the token.
 */
export const passwordSetWire = z.object({ personID: id, username: s });
export type PasswordSet = z.infer<typeof passwordSetWire>;

/**
 * person.recover (Podium extension): the address a link was asked for and `sent` "1". The platform
 * answers the same whether or not an account uses the address, so nothing here tells which.
 */
export const recoverWire = z.object({ email: s, sent: s });
export type RecoverAnswer = z.infer<typeof recoverWire>;

/** The person's own record (person.edit): the identity fields of the access token record (spec §2.1). */
export const ownPersonWire = z.object({
  personID: id,
  ...strings(
    'firstName',
    'lastName',
    'name',
    'username',
    'email',
    'image',
    'timezone',
    'telephone',
    'socialAID',
    'socialBID',
    'socialCID',
  ),
  /** When the record was read (Unix seconds). */
  date: s,
});
export type OwnPerson = z.infer<typeof ownPersonWire>;

/** The access token record of spec §2.1 (person.signIn): the person's own record and the token. */
export const signInWire = ownPersonWire.extend({
  /** The access token. */
  tokenID: s,
  /** `system` or `event`. */
  scope: s,
  /** The event of an event-scope token; "0" for system scope. */
  targetID: s,
});
export type SignIn = z.infer<typeof signInWire>;

/**
 * person.signInLink's answer: the token record, and for a private event a `grant` of it (as
 * event.checkAccessCode gives one; '' for a public event), so that an attendee who arrives by the link
 * on a new device can open the event's pages, not only their own.
 */
export const signInLinkWire = signInWire.extend({
  /** The grant of a private event (`<eventID>.<expires>.<signature>`), else ''. */
  grant: s,
});
export type SignInLink = z.infer<typeof signInLinkWire>;

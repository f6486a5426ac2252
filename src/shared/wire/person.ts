// Answers of the password operations (person.confirm, person.recover).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

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

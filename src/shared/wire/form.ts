// Whether an event takes registrations now (form.get).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, strings } from './values.ts';

export const formWire = z.object({
  eventID: id,
  ...strings('acceptsRegistrations', 'reason', 'capacity', 'remaining'),
});
export type RegistrationForm = z.infer<typeof formWire>;

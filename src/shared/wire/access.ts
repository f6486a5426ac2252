// The answer of event.checkAccessCode.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const accessCodeWire = z.object({ eventID: id, correct: s, required: s, grant: s });
export type AccessCodeAnswer = z.infer<typeof accessCodeWire>;

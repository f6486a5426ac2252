// A tag (tag.find, tag.get): an activity track or an attendee type of an event; or an event tag of a
// company (company.tag.*, event.tag.find), which has no eventID.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const tagWire = z.object({ tagID: id, eventID: s, companyID: s, name: s, color: s, kind: s });
export type Tag = z.infer<typeof tagWire>;

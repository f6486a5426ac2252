// A list of attendees of an event (list.create, list.edit, list.find, list.get, list.remove).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const listWire = z.object({
  listID: id,
  eventID: s,
  name: s,
  /** Unix seconds. */
  dateCreated: s,
  /** People in the list. */
  memberCount: s,
});
export type List = z.infer<typeof listWire>;

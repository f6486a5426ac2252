// A speaker of an event (speaker.find, speaker.get, speaker.create/edit/remove).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s, strings } from './values.ts';

export const speakerWire = z.object({
  speakerID: id,
  eventID: s,
  /** The attendee of the event this speaker is ('' when none). */
  personID: s,
  name: s,
  headline: s,
  /** Organizer HTML (sanitized by the platform; the site sanitizes again). */
  description: s,
  category: s,
  image: s,
  /** Admins of the event only ('' for everyone else). */
  email: s,
  ...strings('website', 'socialA', 'socialB', 'socialC', 'position'),
});
export type Speaker = z.infer<typeof speakerWire>;

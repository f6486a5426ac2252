// An activity of the program (activity.find, activity.get) with its speakers and tags.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const sessionSpeakerWire = z.object({ speakerID: id, name: s, headline: s, image: s });

export const sessionTagWire = z.object({ tagID: id, name: s, color: s });

export const activityWire = z.object({
  activityID: id,
  eventID: s,
  name: s,
  description: s,
  location: s,
  dateBegin: s,
  dateEnd: s,
  capacity: s,
  highlight: s,
  stream: s,
  speakers: z.array(sessionSpeakerWire).default([]),
  tags: z.array(sessionTagWire).default([]),
});
export type Activity = z.infer<typeof activityWire>;

// An activity of the program (activity.find, activity.get; spec §2.4) with its speakers and tags, and
// the reader's enrollment in it.
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s, strings } from './values.ts';

export const sessionSpeakerWire = z.object({ speakerID: id, name: s, headline: s, image: s });

export const sessionTagWire = z.object({ tagID: id, name: s, color: s });

export const activityWire = z.object({
  activityID: id,
  ...strings('eventID', 'placeID', 'name', 'description', 'latitude', 'longitude'),
  /** The room. */
  location: s,
  dateBegin: s,
  dateEnd: s,
  /** Seats: the most people approved (0: no limit). */
  capacity: s,
  /** The most people attending, approved or waiting (0: no limit). */
  oversize: s,
  /** 1: every attendee of the event is enrolled. */
  general: s,
  highlight: s,
  stream: s,
  /** 1: members may not enroll or leave themselves. */
  lockOperations: s,
  /** The reader ('' without a token) and their enrollment: approved −1 none, 0 waiting, 1 approved. */
  personID: s,
  approved: s,
  priori: s,
  /** Podium extension: the reader's place in the waiting list (1…n), 0 when approved or not enrolled. */
  position: s,
  speakers: z.array(sessionSpeakerWire).default([]),
  tags: z.array(sessionTagWire).default([]),
});
export type Activity = z.infer<typeof activityWire>;

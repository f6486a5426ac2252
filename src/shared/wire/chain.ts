// A chain of activities (chain.create, chain.find, chain.remove, activity.chain.find; spec §2.5).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const chainActivityWire = z.object({ activityID: id, name: s });

export const chainWire = z.object({
  chainID: id,
  eventID: s,
  name: s,
  /** How many of the chain's activities one person may be enrolled in. */
  constraint: s,
  activityCount: s,
  /** Its activities by date. */
  activities: z.array(chainActivityWire).default([]),
});
export type Chain = z.infer<typeof chainWire>;

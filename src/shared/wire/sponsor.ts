// A sponsor of an event (sponsor.find, sponsor.get, sponsor.create/edit/remove).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const sponsorWire = z.object({
  sponsorID: id,
  eventID: s,
  name: s,
  companyName: s,
  /** Admins of the event only ('' for everyone else). */
  telephone: s,
  /** Admins of the event only ('' for everyone else). */
  email: s,
  website: s,
  /** Organizer HTML (sanitized by the platform; the site sanitizes again). */
  bio: s,
  logo: s,
  category: s,
  tier: s,
  /** 1 is the top tier; 0 no tier (listed last). */
  tierRank: s,
  position: s,
});
export type Sponsor = z.infer<typeof sponsorWire>;

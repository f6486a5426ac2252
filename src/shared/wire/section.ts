// A hotsite section (event.hotsite.find).
// Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const sectionWire = z.object({
  sectionID: id,
  eventID: s,
  /** The kind (src/shared/hotsite.ts). */
  section: s,
  position: s,
  name: s,
  /** Organizer HTML (sanitized by the platform; the site sanitizes again). */
  text: s,
});
export type HotsiteSectionRow = z.infer<typeof sectionWire>;

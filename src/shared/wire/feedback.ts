// A custom field of an event's registration form as organizers see it (feedback.create, feedback.edit,
// feedback.find, feedback.remove). Every value is a string on the wire (spec §1.2); see ./values.ts.

import { z } from 'zod';
import { id, s } from './values.ts';

export const feedbackWire = z.object({
  feedbackID: id,
  eventID: s,
  /** The label shown to the registrant. */
  name: s,
  /** Help text: organizer HTML, sanitized. */
  description: s,
  /** text, textarea, select, multiselect, checkbox, date, number, email, telephone or url. */
  type: s,
  /** The choices of a select or multiselect. */
  options: z.array(z.object({ value: s })).default([]),
  /** The field's name in feedbackContent given as an object ('' when none). */
  apiKey: s,
  required: s,
  position: s,
  /** How many registrations answered it. */
  answers: s,
});
export type FeedbackField = z.infer<typeof feedbackWire>;

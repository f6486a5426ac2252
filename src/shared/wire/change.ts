import { z } from 'zod';
import { id, s } from './values.ts';

/**
 * A message of change.subscribe (Podium extension, docs/api.md "Following changes"): something committed
 * in this company, in this event when the event is open to anyone (visible and public); a change of a
 * private or hidden event names only its company. Readers drop what they kept of that scope.
 */
export const changeMessageWire = z.object({
  changeID: id,
  companyID: id,
  /** '' when the change is the company's own, or of an event not open to anyone. */
  eventID: s,
});
export type ChangeMessage = z.infer<typeof changeMessageWire>;

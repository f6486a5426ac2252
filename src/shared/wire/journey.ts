import { z } from 'zod';
import { id, s } from './values.ts';

/**
 * One step of a person's journey across a company's events (company.person.journey,
 * docs/api/journey.md), oldest first.
 */
export const journeyWire = z.object({
  /** registration, application, session, checkin, email, comment. */
  type: z.string(),
  /** Unix seconds. */
  date: z.string(),
  eventID: id,
  /** The event's name. */
  eventName: s,
  /** The step's own id: enrollmentID, personID (application), enrollmentID of the session, checklogID, emailLogID, commentID. */
  objectID: s,
  /** The session, for session, check-in at a session's door and comment steps; '0' otherwise. */
  activityID: s,
  /** What it says: the approval state, the check-in result, the e-mail's subject and status, the comment's text. */
  detail: s,
});
export type JourneyStep = z.infer<typeof journeyWire>;

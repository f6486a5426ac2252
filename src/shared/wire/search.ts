import { z } from 'zod';
import { id } from './values.ts';

/**
 * One hit of event.search (docs/api/search.md): what kind of object, its id, and what to show. `type`:
 * activity, speaker, sponsor, section, person, comment; `id` is the object's own id (activityID, …,
 * personID, commentID); `activityID` is set for comments (the session it is on).
 */
export const searchHitWire = z.object({
  type: z.string(),
  id,
  eventID: id,
  /** The name (a comment: its author's name). */
  title: z.string(),
  /** Up to 160 characters of text around the match, or the object's subtitle (role, company, category). */
  snippet: z.string(),
  /** The comment's session; '' for other types. */
  activityID: z.string(),
  /** Higher first: 3 the name starts with the query, 2 a word of the name does, 1 it is in the name, 0 in the text. */
  rank: z.string(),
});

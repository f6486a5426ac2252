import { z } from 'zod';
import { id } from './values.ts';

/** A comment on a session (spec §2.6 Comment, docs/api/comments.md). */
export const commentWire = z.object({
  commentID: id,
  activityID: id,
  eventID: id,
  personID: id,
  /** The author's name in the event. */
  personName: z.string(),
  /** Plain text, sanitized: no markup; `&`, `<` and `>` as character references. */
  text: z.string(),
  /** Unix seconds. */
  date: z.string(),
  /** Unix seconds of the last edit of the text; '0': never edited. */
  updatedDate: z.string(),
  /** '1' shown to everyone, '0' waiting for moderation (spec §2.6 edit key approved). */
  approved: z.string(),
});
export type Comment = z.infer<typeof commentWire>;

/** comment.hashtags: one #tag of a session's approved comments and how many comments carry it. */
export const hashtagWire = z.object({
  /** Lower case, without the '#'. */
  hashtag: z.string(),
  count: z.string(),
});

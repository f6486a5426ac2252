import { z } from 'zod';
import { editKey, type EditKey } from '../../edit.ts';
import { bit, text } from '../../schemas.ts';
import { sanitizeUserText } from '../html.ts';
import type { Comment } from '../../../shared/wire/comment.ts';
import type { CommentRow } from './repository.ts';

/** A comment's text: at most 1000 characters as sent; markup is removed (the shared sanitizer). */
export const TEXT_MAX = 1000;
export const commentText = text(TEXT_MAX).transform(sanitizeUserText);

/**
 * The keys of comment.edit: `approved` (spec §2.6; admins moderate) and `text` (Podium extension: the
 * author corrects their comment). Neither may be emptied.
 */
export const COMMENT_EDIT_KEYS: Readonly<Record<string, EditKey>> = {
  approved: editKey(bit),
  text: editKey(commentText.pipe(z.string().min(1, 'cannot be empty once markup is removed'))),
};

export function commentRecord(r: CommentRow): Comment {
  return {
    commentID: String(r.commentID),
    activityID: String(r.activityID),
    eventID: String(r.eventID),
    personID: String(r.personID),
    personName: r.personName ?? '',
    text: r.text,
    date: String(r.date),
    updatedDate: String(r.updatedDate),
    approved: String(r.approved),
  };
}

import { z } from 'zod';
import {
  ANY_LEVEL,
  b,
  defineOperation,
  editParams,
  pageOf,
  pageParams,
  q,
  qOpt,
  LEVEL,
  type AnyOperation,
  type Context,
} from '../../../kernel/table.ts';
import { id } from '../../../schemas.ts';
import { isEventAdmin } from '../../../kernel/call.ts';
import { keyList, parseEdit } from '../../../edit.ts';
import { commentWire, hashtagWire } from '../../../../shared/wire/comment.ts';
import { ApiError, badRequest, forbidden, notFound } from '../../../errors.ts';
import { memberOf } from '../../chat/repository.ts';
import { readableEvent, grantSchema } from '../../../auth/grant.ts';
import { requireCaller, requireEvent } from '../../../auth/access.ts';
import { activityRow } from '../../activity/repository.ts';
import {
  autoApproves,
  commentByID,
  commentsOf,
  deleteComment,
  hashtagCounts,
  insertComment,
  setApproved,
  setText,
  type CommentRow,
} from '../repository.ts';
import { COMMENT_EDIT_KEYS, TEXT_MAX, commentRecord, commentText } from '../fields.ts';

// Comments on sessions (spec §4.8, docs/api/comments.md). Who sees a comment: everyone of the event once
// it is approved; its author always; the event's admins always. Anyone else is answered as for a comment
// that does not exist, so a comment waiting for moderation cannot be told from a missing one.

const me = (ctx: Context) => ctx.caller!.personID;

/** The comment when the caller may see it, else the 404 of an unknown comment. */
async function visibleComment(ctx: Context, commentID: number): Promise<CommentRow> {
  const c = await commentByID(ctx.db, commentID);
  if (!c || (c.approved !== 1 && c.personID !== me(ctx) && !isEventAdmin(ctx))) throw notFound('comment');
  return c;
}

/** The comment when the caller wrote it or moderates the event; another's is answered as missing. */
async function ownComment(ctx: Context, commentID: number): Promise<CommentRow> {
  const c = await commentByID(ctx.db, commentID);
  if (!c || (c.personID !== me(ctx) && !isEventAdmin(ctx))) throw notFound('comment');
  return c;
}

const reread = async (ctx: Context, commentID: number) => [commentRecord((await commentByID(ctx.db, commentID))!)];

const commentCreate = defineOperation({
  name: 'comment.create',
  summary:
    "Comments on a session (people of the event; plain text, at most 1000 characters, #hashtags counted). Shown at once when the company tool autoApproveComment is on or an admin writes it; else after an admin's approval.",
  methods: ['POST'],
  params: {
    activityID: q(id, 'the session'),
    text: b(commentText, `the comment, at most ${TEXT_MAX} characters; markup is removed`),
  },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: true,
  answer: commentWire,
  async handler(ctx, p) {
    const eventID = ctx.access!.eventID!;
    const admin = isEventAdmin(ctx);
    if (!admin && !(await memberOf(ctx.db, eventID, me(ctx)))) throw forbidden('only people of the event can comment');
    if (p.text === '') throw badRequest('text cannot be empty');
    const approved = admin || (await autoApproves(ctx.db, ctx.access!.companyID)) ? 1 : 0;
    const commentID = await insertComment(ctx.db, {
      eventID,
      activityID: p.activityID,
      personID: me(ctx),
      text: p.text,
      date: ctx.now,
      approved,
    });
    // The id as a number: the change log takes the new comment as the object of this write.
    return [{ ...(await reread(ctx, commentID))[0], commentID }];
  },
});

const commentEdit = defineOperation({
  name: 'comment.edit',
  summary: `Edits a comment. Keys: ${keyList(COMMENT_EDIT_KEYS)}. approved (bit): admins moderate; text (Podium extension): its author corrects it, and without autoApproveComment it waits for approval again.`,
  methods: ['POST'],
  params: { commentID: q(id, 'the comment'), ...editParams(TEXT_MAX * 6, 'new value (approved: 0 or 1)') },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['commentID'] },
  writes: true,
  answer: commentWire,
  async handler(ctx, p) {
    const c = await ownComment(ctx, p.commentID);
    const { column, value } = parseEdit(COMMENT_EDIT_KEYS, p.key, p.value);
    const admin = isEventAdmin(ctx);
    if (column === 'approved') {
      if (!admin) throw forbidden('only event admins may approve comments');
      await setApproved(ctx.db, c.commentID, value as number);
    } else {
      if (c.personID !== me(ctx)) throw forbidden("only its author may edit a comment's text");
      const approved = admin || (await autoApproves(ctx.db, ctx.access!.companyID)) ? c.approved : 0;
      await setText(ctx.db, c, value as string, approved, ctx.now);
    }
    return reread(ctx, c.commentID);
  },
});

const commentRemove = defineOperation({
  name: 'comment.remove',
  summary: 'Removes a comment: its author, or an admin of the event.',
  methods: ['GET'],
  params: { commentID: q(id, 'the comment') },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['commentID'] },
  writes: true,
  answer: commentWire,
  async handler(ctx, p) {
    const c = await ownComment(ctx, p.commentID);
    await deleteComment(ctx.db, c.commentID);
    return [commentRecord(c)];
  },
});

const commentGet = defineOperation({
  name: 'comment.get',
  summary: 'Reads one comment: an approved one, your own, or any for admins.',
  methods: ['GET'],
  params: { commentID: q(id, 'the comment') },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['commentID'] },
  writes: false,
  answer: commentWire,
  async handler(ctx, p) {
    return [commentRecord(await visibleComment(ctx, p.commentID))];
  },
});

const SELECTIONS = ['all', 'approved', 'approved+me'] as const;

/** A session's event as a public read sees it; a session the caller may not see is a missing one. */
async function readableSession(ctx: Context, activityID: number, grant: string | undefined): Promise<void> {
  const row = await activityRow(ctx.db, activityID);
  if (!row) throw notFound('activity');
  try {
    await readableEvent(ctx, row.eventID, grant);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) throw notFound('activity');
    throw err;
  }
}

const commentFind = defineOperation({
  name: 'comment.find',
  summary:
    "Lists a session's comments, newest first: approved (Podium extension: public, as the session is), all (admins: waiting ones too) or approved+me (approved ones and your own).",
  methods: ['GET'],
  params: {
    activityID: q(id, 'the session'),
    selection: q(z.enum(SELECTIONS, `must be one of ${SELECTIONS.join(', ')}`), SELECTIONS.join(', ')),
    grant: qOpt(
      grantSchema,
      'Podium extension (selection approved): the grant of event.checkAccessCode for a private event',
    ),
    ...pageParams,
  },
  // Public so the event's site can show a session's approved comments to anyone who may read the
  // session (selection approved, docs/api/comments.md); the other selections need a person of the event.
  auth: { kind: 'public' },
  writes: false,
  answer: commentWire,
  async handler(ctx, p) {
    let selection: Parameters<typeof commentsOf>[2];
    if (p.selection === 'approved') {
      await readableSession(ctx, p.activityID, p.grant);
      selection = { all: false, viewer: 0 };
    } else {
      requireCaller(ctx);
      const row = await activityRow(ctx.db, p.activityID);
      if (!row) throw notFound('activity');
      const access = await requireEvent(ctx, row.eventID, ANY_LEVEL, 'activity');
      const all = p.selection === 'all';
      if (all && (access.level & LEVEL.ADMIN) === 0)
        throw new ApiError(403, 'only event admins may list every comment');
      selection = all ? { all } : { all, viewer: me(ctx) };
    }
    const page = await commentsOf(ctx.db, p.activityID, selection, pageOf(p));
    return Array.isArray(page) ? page.map(commentRecord) : { rows: page.rows.map(commentRecord), total: page.total };
  },
});

const commentHashtags = defineOperation({
  name: 'comment.hashtags',
  summary: "Counts the #hashtags of a session's approved comments, the most used first.",
  methods: ['GET'],
  params: { activityID: q(id, 'the session'), ...pageParams },
  auth: { kind: 'event', levels: ANY_LEVEL, via: ['activityID'] },
  writes: false,
  answer: hashtagWire,
  async handler(ctx, p) {
    const page = await hashtagCounts(ctx.db, p.activityID, pageOf(p));
    const shape = (r: { hashtag: string; count: number }) => ({ hashtag: r.hashtag, count: String(r.count) });
    return Array.isArray(page) ? page.map(shape) : { rows: page.rows.map(shape), total: page.total };
  },
});

/** Comments (spec §4.8, docs/api/comments.md). */
export const commentOperations: readonly AnyOperation[] = [
  commentCreate,
  commentEdit,
  commentRemove,
  commentGet,
  commentFind,
  commentHashtags,
];

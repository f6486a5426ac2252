import type { Kysely, Selectable } from 'kysely';
import type { CommentTable, DB } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import { hashtagsOf } from './hashtags.ts';

// The store of comments on sessions and of their hashtags (migration 0015).

export type CommentRow = Selectable<CommentTable> & { personName: string };

const num = (r: CommentRow): CommentRow => ({
  ...r,
  commentID: Number(r.commentID),
  date: Number(r.date),
  updatedDate: Number(r.updatedDate),
});

/** Comments with their author's name in the event (or their own name when not registered). */
function withNames(db: Kysely<DB>) {
  return db
    .selectFrom('comment')
    .innerJoin('person', 'person.personID', 'comment.personID')
    .leftJoin('eventPerson', (j) =>
      j.onRef('eventPerson.eventID', '=', 'comment.eventID').onRef('eventPerson.personID', '=', 'comment.personID'),
    )
    .selectAll('comment')
    .select((e) =>
      e.fn
        .coalesce(e.fn('nullif', [e.ref('eventPerson.name'), e.val('')]), e.ref('person.name'))
        .$castTo<string>()
        .as('personName'),
    );
}

export async function commentByID(db: Kysely<DB>, commentID: number): Promise<CommentRow | undefined> {
  const row = await withNames(db).where('comment.commentID', '=', commentID).executeTakeFirst();
  return row && num(row as CommentRow);
}

/** Whether new comments of the company's events show at once (company tool autoApproveComment). */
export async function autoApproves(db: Kysely<DB>, companyID: number): Promise<boolean> {
  const row = await db
    .selectFrom('companyTool')
    .select('autoApproveComment')
    .where('companyID', '=', companyID)
    .executeTakeFirst();
  return row?.autoApproveComment === 1;
}

async function writeTags(db: Kysely<DB>, commentID: number, activityID: number, text: string): Promise<void> {
  await db.deleteFrom('commentTag').where('commentID', '=', commentID).execute();
  const tags = hashtagsOf(text);
  if (tags.length > 0)
    await db
      .insertInto('commentTag')
      .values(tags.map((tag) => ({ commentID, activityID, tag })))
      .execute();
}

export async function insertComment(
  db: Kysely<DB>,
  values: { eventID: number; activityID: number; personID: number; text: string; date: number; approved: number },
): Promise<number> {
  const { commentID } = await db.insertInto('comment').values(values).returning('commentID').executeTakeFirstOrThrow();
  await writeTags(db, Number(commentID), values.activityID, values.text);
  return Number(commentID);
}

export async function setApproved(db: Kysely<DB>, commentID: number, approved: number): Promise<void> {
  await db.updateTable('comment').set({ approved }).where('commentID', '=', commentID).execute();
}

export async function setText(
  db: Kysely<DB>,
  c: CommentRow,
  text: string,
  approved: number,
  now: number,
): Promise<void> {
  await db
    .updateTable('comment')
    .set({ text, approved, updatedDate: now })
    .where('commentID', '=', c.commentID)
    .execute();
  await writeTags(db, c.commentID, c.activityID, text);
}

export async function deleteComment(db: Kysely<DB>, commentID: number): Promise<void> {
  // commentTag rows go with it (foreign key, on delete cascade); deleted here too for stores without it.
  await db.deleteFrom('commentTag').where('commentID', '=', commentID).execute();
  await db.deleteFrom('comment').where('commentID', '=', commentID).execute();
}

/** A session's comments, newest first: every one (`all`), or the approved ones and the viewer's own. */
export async function commentsOf(
  db: Kysely<DB>,
  activityID: number,
  selection: { all: true } | { all: false; viewer: number },
  page: Page,
): Promise<Paged<CommentRow>> {
  let query = withNames(db).where('comment.activityID', '=', activityID);
  if (!selection.all) {
    const viewer = selection.viewer;
    query = query.where((e) => e.or([e('comment.approved', '=', 1), e('comment.personID', '=', viewer)]));
  }
  return readPage(db, query.orderBy('comment.commentID', 'desc'), page, (rows) =>
    rows.map((r) => num(r as CommentRow)),
  );
}

/** The hashtags of a session's approved comments, the most used first. */
export async function hashtagCounts(
  db: Kysely<DB>,
  activityID: number,
  page: Page,
): Promise<Paged<{ hashtag: string; count: number }>> {
  const query = db
    .selectFrom('commentTag')
    .innerJoin('comment', 'comment.commentID', 'commentTag.commentID')
    .select(['commentTag.tag as hashtag', (e) => e.fn.countAll<number>().as('count')])
    .where('commentTag.activityID', '=', activityID)
    .where('comment.approved', '=', 1)
    .groupBy('commentTag.tag')
    .orderBy('count', 'desc')
    .orderBy('commentTag.tag');
  return readPage(db, query, page, (rows) => rows.map((r) => ({ hashtag: r.hashtag, count: Number(r.count) })));
}

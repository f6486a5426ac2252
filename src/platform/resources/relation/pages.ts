import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { readPage, type Page } from '../../db/page.ts';
import { activityQuery, activityRecords, type ActivityViewer } from '../activity/record.ts';
import { chainQuery, chainRecords } from '../chain/repository.ts';
import { listMembers } from '../list/repository.ts';
import { companyTagQuery, tagsOfEvent } from '../tag/company.ts';
import { lowerOf } from '../hotsite/content.ts';
import { activitySpeakers, activitySponsors, activityTags } from './records.ts';

// The paged lists of lists, chains, tags and the relations between them and activities (spec §4.5,
// §4.7, §8), each in a total order (ending with the id) so that pages never overlap or skip.

export const listMembersPage = (db: Kysely<DB>, listID: number, page: Page) =>
  readPage(db, listMembers(db, listID).orderBy('eventPerson.name').orderBy('listPerson.personID'), page);

export const listsOfActivityPage = (db: Kysely<DB>, activityID: number, page: Page) =>
  readPage(
    db,
    db
      .selectFrom('activityList')
      .innerJoin('list', 'list.listID', 'activityList.listID')
      .where('activityList.activityID', '=', activityID)
      .select(['activityList.activityID', 'list.listID', 'list.eventID', 'list.name'])
      .orderBy('list.name')
      .orderBy('list.listID'),
    page,
  );

export const chainsOfActivityPage = (db: Kysely<DB>, activityID: number, page: Page) =>
  readPage(
    db,
    chainQuery(db)
      .where('chain.chainID', 'in', (s) =>
        s
          .selectFrom('activityChain')
          .select('activityChain.chainID')
          .where('activityChain.activityID', '=', activityID),
      )
      .orderBy('chain.name')
      .orderBy('chain.chainID'),
    page,
    (rows) => chainRecords(db, rows),
  );

/** The other activities of the chains an activity is in, by date. */
export const chainedActivitiesPage = (db: Kysely<DB>, activityID: number, page: Page, viewer?: ActivityViewer) =>
  readPage(
    db,
    activityQuery(db)
      .where('activity.activityID', '!=', activityID)
      .where('activity.activityID', 'in', (s) =>
        s
          .selectFrom('activityChain as other')
          .innerJoin('activityChain as mine', 'mine.chainID', 'other.chainID')
          .select('other.activityID')
          .where('mine.activityID', '=', activityID),
      )
      .orderBy('activity.dateBegin')
      .orderBy('activity.activityID'),
    page,
    (rows) => activityRecords(db, rows, viewer),
  );

/** The activities linked to one speaker or sponsor, by date. */
export function linkedActivitiesPage(
  db: Kysely<DB>,
  link: { table: 'activitySpeaker'; column: 'speakerID' } | { table: 'activitySponsor'; column: 'sponsorID' },
  id: number,
  page: Page,
  viewer?: ActivityViewer,
) {
  // The two relation tables have the same shape; one of them stands for both in the types.
  const theirs = db
    .selectFrom(link.table as 'activitySpeaker')
    .select('activityID')
    .where(link.column as 'speakerID', '=', id);
  return readPage(
    db,
    activityQuery(db)
      .where('activity.activityID', 'in', theirs)
      .orderBy('activity.dateBegin')
      .orderBy('activity.activityID'),
    page,
    (rows) => activityRecords(db, rows, viewer),
  );
}

/** An activity's speakers; readers who are not event admins get `email` empty. */
export const activitySpeakersPage = (db: Kysely<DB>, activityID: number, page: Page, admin: boolean) =>
  readPage(
    db,
    activitySpeakers(db, activityID).orderBy('speaker.position').orderBy('speaker.name').orderBy('speaker.speakerID'),
    page,
    (rows) => rows.map((s) => (admin ? s : { ...s, email: '' })),
  );

/** An activity's sponsors; readers who are not event admins get `telephone` and `email` empty (as sponsor.find). */
export const activitySponsorsPage = (db: Kysely<DB>, activityID: number, page: Page, admin: boolean) =>
  readPage(
    db,
    activitySponsors(db, activityID).orderBy('sponsor.tierRank').orderBy('sponsor.name').orderBy('sponsor.sponsorID'),
    page,
    (rows) => rows.map((s) => (admin ? s : { ...s, telephone: '', email: '' })),
  );

export const activityTagsPage = (db: Kysely<DB>, activityID: number, page: Page) =>
  readPage(db, activityTags(db, activityID).orderBy('tag.name').orderBy('tag.tagID'), page);

export const eventTagsPage = (db: Kysely<DB>, eventID: number, page: Page) =>
  readPage(db, tagsOfEvent(db, eventID).orderBy(lowerOf('tag.name')).orderBy('tag.tagID'), page);

export const companyTagsPage = (db: Kysely<DB>, companyID: number, page: Page) =>
  readPage(db, companyTagQuery(db, companyID).orderBy(lowerOf('tag.name')).orderBy('tag.tagID'), page);

/** The event an activity belongs to (undefined: no such activity). */
export async function activityEventID(db: Kysely<DB>, activityID: number): Promise<number | undefined> {
  const row = await db.selectFrom('activity').select('eventID').where('activityID', '=', activityID).executeTakeFirst();
  return row?.eventID;
}

import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../src/platform/db/schema.ts';

// event.search's reads (docs/api/search.md): one bounded query per type of object, each a
// case-insensitive "contains" on the type's text columns within one event, at most PER_TYPE rows. The
// rows come back as hits to rank; who may see which rows is decided here, in the queries.

/** Most rows read of each type: a query that matches more is told to be more precise (page past them: none). */
export const PER_TYPE = 50;

export const SEARCH_TYPES = ['activity', 'speaker', 'sponsor', 'section', 'person', 'comment'] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

export interface RawHit {
  type: SearchType;
  id: number;
  title: string;
  /** Text the snippet is cut from (may hold organizer HTML). */
  text: string;
  activityID: number | null;
}

/** Who searches: what people and comments they may see. */
export interface Searcher {
  personID: number;
  /** Event admins: comments waiting for moderation too. */
  admin: boolean;
  /** Admins, staff, collectors: every attendee, private ones too, and by e-mail. */
  readsPeople: boolean;
}

const like = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
/** Any of `columns` contains the text (any case); % and _ in the text match themselves. */
const anyContains = (columns: readonly string[], text: string) => {
  const pattern = like(text);
  return sql<SqlBool>`(${sql.join(
    columns.map((c) => sql`lower(${sql.ref(c)}) like ${pattern} escape '\\'`),
    sql` or `,
  )})`;
};

export async function searchEvent(
  db: Kysely<DB>,
  eventID: number,
  text: string,
  types: ReadonlySet<SearchType>,
  who: Searcher,
): Promise<RawHit[]> {
  const reads: Promise<RawHit[]>[] = [];
  if (types.has('activity'))
    reads.push(
      db
        .selectFrom('activity')
        .select(['activityID', 'name', 'description', 'location'])
        .where('eventID', '=', eventID)
        .where(anyContains(['name', 'description', 'location'], text))
        .orderBy('activityID')
        .limit(PER_TYPE)
        .execute()
        .then(
          (rows) =>
          rows.map((r) => ({ type: 'activity' as const, id: r.activityID, title: r.name, text: `${r.location} ${r.description}`, activityID: null })), // prettier-ignore
        ),
    );
  if (types.has('speaker'))
    reads.push(
      db
        .selectFrom('speaker')
        .select(['speakerID', 'name', 'headline', 'description', 'category'])
        .where('eventID', '=', eventID)
        .where(anyContains(['name', 'headline', 'description', 'category'], text))
        .orderBy('speakerID')
        .limit(PER_TYPE)
        .execute()
        .then(
          (rows) =>
          rows.map((r) => ({ type: 'speaker' as const, id: r.speakerID, title: r.name, text: `${r.headline} ${r.category} ${r.description}`, activityID: null })), // prettier-ignore
        ),
    );
  if (types.has('sponsor'))
    reads.push(
      db
        .selectFrom('sponsor')
        .select(['sponsorID', 'name', 'companyName', 'bio', 'category'])
        .where('eventID', '=', eventID)
        .where(anyContains(['name', 'companyName', 'bio', 'category'], text))
        .orderBy('sponsorID')
        .limit(PER_TYPE)
        .execute()
        .then(
          (rows) =>
          rows.map((r) => ({ type: 'sponsor' as const, id: r.sponsorID, title: r.companyName || r.name, text: `${r.name} ${r.category} ${r.bio}`, activityID: null })), // prettier-ignore
        ),
    );
  if (types.has('section'))
    reads.push(
      db
        .selectFrom('hotsite')
        .select(['sectionID', 'name', 'text'])
        .where('eventID', '=', eventID)
        .where(anyContains(['name', 'text'], text))
        .orderBy('sectionID')
        .limit(PER_TYPE)
        .execute()
        .then(
          (rows) =>
          rows.map((r) => ({ type: 'section' as const, id: r.sectionID, title: r.name, text: r.text, activityID: null })), // prettier-ignore
        ),
    );
  if (types.has('person')) {
    const columns = ['name', 'firstName', 'lastName', 'company', 'role', ...(who.readsPeople ? ['email'] : [])];
    let people = db
      .selectFrom('eventPerson')
      .select(['personID', 'name', 'firstName', 'lastName', 'role', 'company'])
      .where('eventID', '=', eventID)
      .where(anyContains(columns, text));
    // Others see the people who did not make their profile private, and themselves.
    if (!who.readsPeople) people = people.where((e) => e.or([e('private', '=', 0), e('personID', '=', who.personID)]));
    reads.push(
      people
        .orderBy('personID')
        .limit(PER_TYPE)
        .execute()
        .then((rows) =>
          rows.map((r) => ({
            type: 'person' as const,
            id: r.personID,
            title: r.name !== '' ? r.name : `${r.firstName} ${r.lastName}`.trim(),
            text: [r.role, r.company].filter(Boolean).join(', '),
            activityID: null,
          })),
        ),
    );
  }
  if (types.has('comment')) {
    let comments = db
      .selectFrom('comment')
      .innerJoin('person', 'person.personID', 'comment.personID')
      .leftJoin('eventPerson', (j) =>
        j.onRef('eventPerson.eventID', '=', 'comment.eventID').onRef('eventPerson.personID', '=', 'comment.personID'),
      )
      .select([
        'comment.commentID',
        'comment.activityID',
        'comment.text',
        'person.name as personName',
        'eventPerson.name as eventName',
      ]) // prettier-ignore
      .where('comment.eventID', '=', eventID)
      .where(anyContains(['comment.text'], text));
    // Comments waiting for moderation: their authors and the admins only.
    if (!who.admin)
      comments = comments.where((e) => e.or([e('comment.approved', '=', 1), e('comment.personID', '=', who.personID)]));
    reads.push(
      comments
        .orderBy('comment.commentID')
        .limit(PER_TYPE)
        .execute()
        .then((rows) =>
          rows.map((r) => ({
            type: 'comment' as const,
            id: r.commentID,
            title: r.eventName || r.personName,
            text: r.text,
            activityID: r.activityID,
          })),
        ),
    );
  }
  return (await Promise.all(reads)).flat();
}

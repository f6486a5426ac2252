import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { Page, Paged } from '../../db/page.ts';
import { activityQuery, activityRecords, type ActivityViewer } from './record.ts';

// Conditions on the `activity` row of a program query (activity.find), as SQL that both stores run.
// Each is one correlated subquery on an indexed relation: the program is read in one query, whatever
// the selection, and then shaped by activityRecords (three more).

type Condition = RawBuilder<boolean>;
const ref = sql.ref;
const table = sql.table;
const ACTIVITY = ref('activity.activityID');

/** The activities of an event that meet the time window, by dateBegin then activityID. */
export function programQuery(db: Kysely<DB>, eventID: number, window: { dateBegin?: number; dateEnd?: number }) {
  return activityQuery(db)
    .where('activity.eventID', '=', eventID)
    .$if(window.dateBegin !== undefined, (q) => q.where('activity.dateEnd', '>=', window.dateBegin!))
    .$if(window.dateEnd !== undefined, (q) => q.where('activity.dateBegin', '<=', window.dateEnd!))
    .orderBy('activity.dateBegin')
    .orderBy('activity.activityID');
}

/**
 * Which activities a program read keeps (spec §4.5): the whole program, or those of a person in
 * some enrollment states (`available`: not enrolled and open to them, `lockedOut` leaving out the
 * ones where only admins may enrol), or those of a list (`limited` to it, or `open` to it).
 */
export type ProgramFilter =
  | { readonly kind: 'all' }
  | {
      readonly kind: 'person';
      readonly personID: number;
      readonly states: readonly EnrollmentState[];
      readonly available: boolean;
      readonly lockedOut: boolean;
    }
  | { readonly kind: 'list'; readonly listID: number; readonly limited: boolean; readonly open: boolean };

/**
 * One page of an event's program (activity.find): the activities the filter keeps in the time window,
 * by dateBegin then activityID (a total order, so pages never overlap or skip), shaped for the viewer;
 * the total of the whole list only when the page asks for it.
 */
export async function findProgram(
  db: Kysely<DB>,
  eventID: number,
  window: { dateBegin?: number; dateEnd?: number },
  filter: ProgramFilter,
  page: Page,
  viewer: ActivityViewer | undefined,
): Promise<Paged<Awaited<ReturnType<typeof activityRecords>>[number]>> {
  const conditions = programConditions(filter);
  const query = conditions.reduce((q, c) => q.where(c), programQuery(db, eventID, window));
  const rows = await query.limit(page.limit).offset(page.offset).execute();
  const records = await activityRecords(db, rows, viewer);
  if (!page.paginated) return records;
  const counted = db
    .selectFrom(query.clearSelect().clearOrderBy().select('activity.activityID').as('kept'))
    .select((e) => e.fn.countAll<number>().as('n'));
  const { n } = await counted.executeTakeFirstOrThrow();
  return { rows: records, total: Number(n) };
}

function programConditions(filter: ProgramFilter): Condition[] {
  if (filter.kind === 'all') return [];
  if (filter.kind === 'list') {
    return [
      ...(filter.limited ? [limitedToList(filter.listID)] : []),
      ...(filter.open ? [openToList(filter.listID)] : []),
    ];
  }
  const out = filter.states.map((state) => enrolled(filter.personID, state));
  if (filter.available) out.push(sql<boolean>`not ${enrolled(filter.personID)}`, openTo(filter.personID));
  // A member cannot enroll by themselves where lockOperations is set; an admin can.
  if (filter.available && filter.lockedOut) out.push(sql<boolean>`${ref('activity.lockOperations')} = 0`);
  return out;
}

/** The event a list belongs to (undefined: no such list). */
export async function listEventID(db: Kysely<DB>, listID: number): Promise<number | undefined> {
  const row = await db.selectFrom('list').select('eventID').where('listID', '=', listID).executeTakeFirst();
  return row?.eventID;
}

/** Whether an address is on the event's invitee list (any case). */
export async function isInvited(db: Kysely<DB>, eventID: number, email: string): Promise<boolean> {
  const found = await db
    .selectFrom('eventInvite')
    .select('email')
    .where('eventID', '=', eventID)
    .where(sql<string>`lower(${sql.ref('email')})`, '=', email.toLowerCase())
    .executeTakeFirst();
  return found !== undefined;
}

/** What a person's enrollment row must show: any row, approved 1, approved 0, paid 1, present 1. */
export type EnrollmentState = 'enrolled' | 'approved' | 'denied' | 'paid' | 'present';

const STATE: Record<EnrollmentState, RawBuilder<unknown>> = {
  enrolled: sql``,
  approved: sql` and ap.${ref('approved')} = 1`,
  denied: sql` and ap.${ref('approved')} = 0`,
  paid: sql` and ap.${ref('paid')} = 1`,
  present: sql` and ap.${ref('present')} = 1`,
};

/** The person has an enrollment row in the activity in that state. */
export function enrolled(personID: number, state: EnrollmentState = 'enrolled'): Condition {
  return sql<boolean>`exists (select 1 from ${table('activityPerson')} as ap where ap.${ref('activityID')} = ${ACTIVITY} and ap.${ref('personID')} = ${personID}${STATE[state]})`;
}

/**
 * The activity is open to the person: not limited to lists the person is not in, no chain of it
 * already holds as many of the person's enrollments as its constraint allows, and it has room.
 */
export function openTo(personID: number): Condition {
  const listed = sql`exists (select 1 from ${table('activityList')} as al where al.${ref('activityID')} = ${ACTIVITY})`;
  const inList = sql`exists (select 1 from ${table('activityList')} as al inner join ${table('listPerson')} as lp on lp.${ref('listID')} = al.${ref('listID')} where al.${ref('activityID')} = ${ACTIVITY} and lp.${ref('personID')} = ${personID})`;
  const chainFull = sql`exists (select 1 from ${table('activityChain')} as ac inner join ${table('chain')} as ch on ch.${ref('chainID')} = ac.${ref('chainID')} where ac.${ref('activityID')} = ${ACTIVITY} and (select count(*) from ${table('activityChain')} as ac2 inner join ${table('activityPerson')} as cp on cp.${ref('activityID')} = ac2.${ref('activityID')} where ac2.${ref('chainID')} = ac.${ref('chainID')} and cp.${ref('personID')} = ${personID}) >= ch.${ref('maxPerPerson')})`;
  return sql<boolean>`((not ${listed}) or ${inList}) and not ${chainFull} and ${hasRoom()}`;
}

/**
 * The activity has room for one more person. capacity bounds the approved people and oversize the
 * people attending (approved or waiting), 0 meaning no limit: with capacity reached, a waiting list
 * exists only when oversize is above capacity.
 */
export function hasRoom(): Condition {
  const capacity = ref('activity.capacity');
  const oversize = ref('activity.oversize');
  const approved = sql`(select count(*) from ${table('activityPerson')} as c where c.${ref('activityID')} = ${ACTIVITY} and c.${ref('approved')} = 1)`;
  const attending = sql`(select count(*) from ${table('activityPerson')} as c where c.${ref('activityID')} = ${ACTIVITY})`;
  return sql<boolean>`(${capacity} = 0 or ${approved} < ${capacity} or ${oversize} > ${capacity}) and (${oversize} = 0 or ${attending} < ${oversize})`;
}

/** The activity is limited to the list (an activityList row). */
export function limitedToList(listID: number): Condition {
  return sql<boolean>`exists (select 1 from ${table('activityList')} as al where al.${ref('activityID')} = ${ACTIVITY} and al.${ref('listID')} = ${listID})`;
}

/** The list's members may join: the activity has no list limit, or is limited to this list (among others). */
export function openToList(listID: number): Condition {
  return sql<boolean>`(not exists (select 1 from ${table('activityList')} as al where al.${ref('activityID')} = ${ACTIVITY}) or ${limitedToList(listID)})`;
}

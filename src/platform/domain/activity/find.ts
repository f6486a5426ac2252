import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { activityQuery } from './record.ts';

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

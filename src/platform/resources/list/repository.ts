import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/** List records: listID, eventID, name, dateCreated and `memberCount` (people in the list). */
export function listQuery(db: Kysely<DB>) {
  return db
    .selectFrom('list')
    .select(['list.listID', 'list.eventID', 'list.name', 'list.dateCreated'])
    .select(
      sql<number>`(select count(*) from ${sql.table('listPerson')} as lp where lp.${sql.ref('listID')} = ${sql.ref('list.listID')})`.as(
        'memberCount',
      ),
    );
}

/**
 * Members of a list as list.person.find answers them: listID, personID, and the name and e-mail the
 * list's event has of them.
 */
export function listMembers(db: Kysely<DB>, listID: number) {
  return db
    .selectFrom('listPerson')
    .innerJoin('list', 'list.listID', 'listPerson.listID')
    .innerJoin('eventPerson', (j) =>
      j.onRef('eventPerson.eventID', '=', 'list.eventID').onRef('eventPerson.personID', '=', 'listPerson.personID'),
    )
    .select(['listPerson.listID', 'listPerson.personID', 'eventPerson.name', 'eventPerson.email'])
    .where('listPerson.listID', '=', listID);
}

/** For removing an attendee from an event: takes the person out of every list of that event. */
export async function removeFromEventLists(db: Kysely<DB>, eventID: number, personID: number): Promise<void> {
  await db
    .deleteFrom('listPerson')
    .where('personID', '=', personID)
    .where('listID', 'in', (s) => s.selectFrom('list').select('list.listID').where('list.eventID', '=', eventID))
    .execute();
}

/** One member of a list as list.person.find answers it (empty: not a member, or no longer an attendee). */
export const listMember = (db: Kysely<DB>, listID: number, personID: number) =>
  listMembers(db, listID).where('listPerson.personID', '=', personID).execute();

/**
 * Who list.person.dismiss names: the event's record of the person (name and e-mail as given to it),
 * or a list member who is no longer an attendee, with ids only; undefined when neither.
 */
export async function listPersonOf(db: Kysely<DB>, eventID: number, listID: number, personID: number) {
  const attendee = await db
    .selectFrom('eventPerson')
    .select(['personID', 'name', 'email'])
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  if (attendee) return attendee;
  const member = await db
    .selectFrom('listPerson')
    .select('personID')
    .where('listID', '=', listID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  return member ? { personID: member.personID, name: '', email: '' } : undefined;
}

/** A list's record (empty when there is no such list). */
export const listByID = (db: Kysely<DB>, listID: number) => listQuery(db).where('list.listID', '=', listID).execute();

export async function createList(db: Kysely<DB>, eventID: number, name: string, now: number) {
  const { listID } = await db
    .insertInto('list')
    .values({ eventID, name, dateCreated: now })
    .returning('listID')
    .executeTakeFirstOrThrow();
  return listID;
}

export async function renameList(db: Kysely<DB>, listID: number, name: string): Promise<void> {
  await db.updateTable('list').set({ name }).where('listID', '=', listID).execute();
}

/** Removes a list, its members and its activity links. */
export async function removeList(db: Kysely<DB>, listID: number): Promise<void> {
  await db.deleteFrom('listPerson').where('listID', '=', listID).execute();
  await db.deleteFrom('activityList').where('listID', '=', listID).execute();
  await db.deleteFrom('list').where('listID', '=', listID).execute();
}

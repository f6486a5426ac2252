import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { listWire } from '../../../shared/wire/list.ts';
import { countOf, defineResource, field } from '../crud/resource.ts';
import { relationName } from '../relation/common.ts';
import { eventPersonOf } from '../rows.ts';

/**
 * A list of attendees of an event, declared once: its name, when it was made (set by list.create) and
 * how many people it holds. Listed by name, then listID.
 */
export const LIST = defineResource({
  table: 'list',
  id: 'listID',
  what: 'list',
  wire: listWire,
  also: ['dateCreated'],
  fields: { name: field(relationName, 'list name', { required: true }) },
  derived: countOf('memberCount', 'listPerson', 'listID'),
  order: ['name', 'listID'],
});

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
  const attendee = await eventPersonOf(db, eventID, personID).select(['personID', 'name', 'email']).executeTakeFirst();
  if (attendee) return attendee;
  const member = await db
    .selectFrom('listPerson')
    .select('personID')
    .where('listID', '=', listID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  return member ? { personID: member.personID, name: '', email: '' } : undefined;
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';

/**
 * One query for an event with everything its record computes from other tables (spec §2.2):
 * approved attendee count, whether it has tags, the company's tool switches, its template's name.
 */
export function eventRecordQuery(db: Kysely<DB>) {
  return db
    .selectFrom('event')
    .leftJoin('companyTool as tool', 'tool.companyID', 'event.companyID')
    .leftJoin('event as template', 'template.eventID', 'event.templateID')
    .selectAll('event')
    .select((e) => [
      e
        .selectFrom('eventPerson')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('eventPerson.eventID', '=', 'event.eventID')
        .where('eventPerson.approved', '=', 1)
        .as('peopleCount'),
      e
        .selectFrom('eventTag')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('eventTag.eventID', '=', 'event.eventID')
        .as('tagCount'),
      'tool.feedback as hasFeedback',
      'tool.photo as hasPhoto',
      'tool.material as hasMaterial',
      'tool.sponsors as hasSponsor',
      sql<string>`coalesce(${sql.ref('template.name')}, '')`.as('templateName'),
    ]);
}

export type EventRecordRow = NonNullable<Awaited<ReturnType<ReturnType<typeof eventRecordQuery>['executeTakeFirst']>>>;

export function eventByID(db: Kysely<DB>, eventID: number) {
  return eventRecordQuery(db).where('event.eventID', '=', eventID).executeTakeFirst();
}

export function eventByNickname(db: Kysely<DB>, namespace: string, nickname: string) {
  return eventRecordQuery(db)
    .innerJoin('company', 'company.companyID', 'event.companyID')
    .where('company.namespace', '=', namespace.toLowerCase())
    .where('event.nickname', '=', nickname.toLowerCase())
    .executeTakeFirst();
}

export function eventByCname(db: Kysely<DB>, cname: string) {
  return eventRecordQuery(db).where('event.cname', '=', cname.toLowerCase()).executeTakeFirst();
}

/** A person's registration in an event, with the profile fields the event record repeats. */
export function registration(db: Kysely<DB>, eventID: number, personID: number) {
  return db
    .selectFrom('person')
    .leftJoin('eventPerson', (j) =>
      j.onRef('eventPerson.personID', '=', 'person.personID').on('eventPerson.eventID', '=', eventID),
    )
    .select(['person.personID', 'person.role', 'person.company', 'eventPerson.level', 'eventPerson.approved'])
    .where('person.personID', '=', personID)
    .executeTakeFirst();
}

import { sql, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import { journeyWire } from '../../../shared/wire/journey.ts';
import { recordOf, type RecordOf } from '../records.ts';

// A person's journey across one company's events (company.person.journey, docs/api/journey.md): the
// rows that person left in the stores of registrations, applications, session enrollments, check-ins,
// e-mails and comments, as one list ordered in time. Only rows of the company's own events are read:
// a company never sees what the person did at another company's events.

export type JourneyRecord = RecordOf<typeof journeyWire>;
const step = recordOf(journeyWire);

const txt = (e: string) => sql<string>`cast(${sql.raw(e)} as text)`;
const lit = (v: string) => sql<string>`${sql.lit(v)}`;

/** Whether the person left anything in the company's events (registered or applied). */
export async function knownToCompany(db: Kysely<DB>, companyID: number, personID: number): Promise<boolean> {
  const events = db.selectFrom('event').select('eventID').where('companyID', '=', companyID);
  const [reg, app] = await Promise.all([
    db.selectFrom('eventPerson').select('personID').where('personID', '=', personID).where('eventID', 'in', events).limit(1).executeTakeFirst(), // prettier-ignore
    db.selectFrom('eventApplicant').select('personID').where('personID', '=', personID).where('eventID', 'in', events).limit(1).executeTakeFirst(), // prettier-ignore
  ]);
  return reg !== undefined || app !== undefined;
}

/** One page of the journey, oldest first (ties: by type, then the step's id). */
export function journeyPage(
  db: Kysely<DB>,
  companyID: number,
  personID: number,
  page: Page,
): Promise<Paged<JourneyRecord>> {
  const events = db.selectFrom('event').select('eventID').where('companyID', '=', companyID);
  const registrations = db
    .selectFrom('eventPerson')
    .select([
      lit('registration').as('type'),
      sql<number>`${sql.ref('enrollmentDate')}`.as('date'),
      'eventID',
      sql<number>`${sql.ref('enrollmentID')}`.as('objectID'),
      sql<number>`0`.as('activityID'),
      sql<string>`${sql.lit('approved ')} || ${txt('approved')}`.as('detail'),
    ])
    .where('personID', '=', personID)
    .where('eventID', 'in', events);
  const applications = db
    .selectFrom('eventApplicant')
    .select([
      lit('application').as('type'),
      sql<number>`${sql.ref('dateCreated')}`.as('date'),
      'eventID',
      sql<number>`${sql.ref('personID')}`.as('objectID'),
      sql<number>`0`.as('activityID'),
      sql<string>`${sql.lit('approved ')} || ${txt('approved')}`.as('detail'),
    ])
    .where('personID', '=', personID)
    .where('eventID', 'in', events);
  const sessions = db
    .selectFrom('activityPerson')
    .select([
      lit('session').as('type'),
      sql<number>`${sql.ref('dateCreated')}`.as('date'),
      'eventID',
      sql<number>`${sql.ref('enrollmentID')}`.as('objectID'),
      sql<number>`${sql.ref('activityID')}`.as('activityID'),
      sql<string>`${sql.lit('approved ')} || ${txt('approved')}`.as('detail'),
    ])
    .where('personID', '=', personID)
    .where('eventID', 'in', events);
  const checkins = db
    .selectFrom('checklog')
    .select([
      lit('checkin').as('type'),
      sql<number>`${sql.ref('date')}`.as('date'),
      'eventID',
      sql<number>`${sql.ref('checklogID')}`.as('objectID'),
      sql<number>`${sql.ref('activityID')}`.as('activityID'),
      sql<string>`${sql.ref('direction')} || ${sql.lit(' ')} || ${sql.ref('result')}`.as('detail'),
    ])
    .where('personID', '=', personID)
    .where('eventID', 'in', events);
  const emails = db
    .selectFrom('emailLog')
    .select([
      lit('email').as('type'),
      sql<number>`${sql.ref('date')}`.as('date'),
      'eventID',
      sql<number>`${sql.ref('emailLogID')}`.as('objectID'),
      sql<number>`0`.as('activityID'),
      sql<string>`${sql.ref('status')} || ${sql.lit(': ')} || ${sql.ref('subject')}`.as('detail'),
    ])
    .where('personID', '=', personID)
    .where('eventID', 'in', events);
  const comments = db
    .selectFrom('comment')
    .select([
      lit('comment').as('type'),
      sql<number>`${sql.ref('date')}`.as('date'),
      'eventID',
      sql<number>`${sql.ref('commentID')}`.as('objectID'),
      sql<number>`${sql.ref('activityID')}`.as('activityID'),
      sql<string>`${sql.ref('text')}`.as('detail'),
    ])
    .where('personID', '=', personID)
    .where('eventID', 'in', events);
  const all = registrations
    .unionAll(applications)
    .unionAll(sessions)
    .unionAll(checkins)
    .unionAll(emails)
    .unionAll(comments);
  const q = db
    .selectFrom(all.as('j'))
    .innerJoin('event', 'event.eventID', 'j.eventID')
    .select(['j.type', 'j.date', 'j.eventID', 'event.name as eventName', 'j.objectID', 'j.activityID', 'j.detail'])
    .orderBy('j.date')
    .orderBy('j.type')
    .orderBy('j.objectID');
  return readPage(db, q, page, (rows) =>
    rows.map((r) =>
      step({
        type: r.type,
        date: Number(r.date),
        eventID: r.eventID,
        eventName: r.eventName,
        objectID: Number(r.objectID),
        activityID: Number(r.activityID),
        detail: r.detail,
      }),
    ),
  );
}

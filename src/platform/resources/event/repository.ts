import { sql, type Expression, type ExpressionBuilder, type Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { conflict } from '../../errors.ts';
import { insertRow } from '../rows.ts';
import { newEventRow, type NewEvent } from './fields.ts';

/** 1 when `rows` (rows of the event) has at least one, else 0: a has* field of spec §2.2. */
function anyOf(e: ExpressionBuilder<DB, 'event'>, ...rows: Expression<unknown>[]) {
  return e
    .case()
    .when(e.or(rows.map((r) => e.exists(r))))
    .then(1)
    .else(0)
    .end();
}

/**
 * One query for an event with everything its record computes from other tables (spec §2.2):
 * approved attendee count, whether it has tags, sponsors and feedback fields, its template's name.
 * The has* fields say what the event really has, not the company's tool switches (company.tool.get
 * answers those): a new event shows hasSponsor 0 until a sponsor is created.
 */
export function eventRecordQuery(db: Kysely<DB>) {
  return db
    .selectFrom('event')
    .leftJoin('event as template', 'template.eventID', 'event.templateID')
    .selectAll('event')
    .select((e) => [
      e
        .selectFrom('eventPerson')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('eventPerson.eventID', '=', 'event.eventID')
        .where('eventPerson.approved', '=', 1)
        .as('peopleCount'),
      // Tags of its own (activity tracks, attendee tags) or tags it is filed under (event tags).
      anyOf(
        e,
        e.selectFrom('tag').select('tag.tagID').whereRef('tag.eventID', '=', 'event.eventID'),
        e.selectFrom('eventTag').select('eventTag.tagID').whereRef('eventTag.eventID', '=', 'event.eventID'),
      ).as('hasTag'),
      anyOf(
        e,
        e.selectFrom('sponsor').select('sponsor.sponsorID').whereRef('sponsor.eventID', '=', 'event.eventID'),
      ).as('hasSponsor'),
      // Its registration form's own fields (feedback, spec §4.4 feedback_<id>).
      anyOf(
        e,
        e.selectFrom('feedback').select('feedback.feedbackID').whereRef('feedback.eventID', '=', 'event.eventID'),
      ).as('hasFeedback'),
      sql<string>`coalesce(${sql.ref('template.name')}, '')`.as('templateName'),
    ]);
}

export type EventRecordRow = NonNullable<Awaited<ReturnType<ReturnType<typeof eventRecordQuery>['executeTakeFirst']>>>;

/**
 * What a public read asks of an event before it answers (readableEvent): whether it may be seen, and
 * when it ends. A plain row lookup, not the record: every public read of an event's content pays it.
 */
export function eventGateByID(db: Kysely<DB>, eventID: number) {
  return db
    .selectFrom('event')
    .select(['eventID', 'visible', 'public', 'isTemplate', 'dateEnd', 'accessCode'])
    .where('eventID', '=', eventID)
    .executeTakeFirst();
}

/** The event's address on the platform's site: its company's namespace and its nickname. */
export function eventAddressOf(db: Kysely<DB>, eventID: number) {
  return db
    .selectFrom('event')
    .innerJoin('company', 'company.companyID', 'event.companyID')
    .select(['event.eventID', 'event.nickname', 'company.namespace', 'event.visible', 'event.isTemplate'])
    .where('event.eventID', '=', eventID)
    .executeTakeFirst();
}

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

/**
 * A person as an event sees them: their registration (level, approved, and the role and company they
 * gave to this event), their level in the event's company, and whether they are a platform operator.
 * Undefined when the person is neither an attendee of the event nor in its company: the event then
 * knows nothing of them (docs/api.md "People: identity and profiles").
 */
export async function personInEventView(db: Kysely<DB>, eventID: number, companyID: number, personID: number) {
  const row = await db
    .selectFrom('person')
    .leftJoin('eventPerson', (j) =>
      j.onRef('eventPerson.personID', '=', 'person.personID').on('eventPerson.eventID', '=', eventID),
    )
    .leftJoin('companyPerson', (j) =>
      j.onRef('companyPerson.personID', '=', 'person.personID').on('companyPerson.companyID', '=', companyID),
    )
    .select([
      'person.personID',
      'person.operator',
      'eventPerson.role',
      'eventPerson.company',
      'eventPerson.level',
      'eventPerson.approved',
      'companyPerson.level as companyLevel',
    ])
    .where('person.personID', '=', personID)
    .executeTakeFirst();
  if (!row || (row.level === null && row.companyLevel === null)) return undefined;
  return {
    personID: row.personID,
    role: row.role ?? '',
    company: row.company ?? '',
    level: row.level ?? 0,
    approved: row.approved ?? -1,
    systemLevel: row.operator,
    companyLevel: row.companyLevel ?? 0,
  };
}

/** A few columns of one event, for a rule that needs only them (undefined: no such event). */
export function eventColumns<K extends keyof DB['event'] & string>(
  db: Kysely<DB>,
  eventID: number,
  columns: readonly K[],
) {
  return db.selectFrom('event').select(columns).where('eventID', '=', eventID).executeTakeFirst();
}

/** 409 when another event of the company has the nickname, or another event the custom domain. */
export async function checkEventAddress(
  db: Kysely<DB>,
  event: { eventID: number; companyID: number },
  address: { nickname: string } | { cname: string },
): Promise<void> {
  const other = db.selectFrom('event').select('eventID').where('eventID', '!=', event.eventID);
  if ('nickname' in address) {
    const taken = await other
      .where('companyID', '=', event.companyID)
      .where('nickname', '=', address.nickname)
      .executeTakeFirst();
    if (taken) throw conflict('nickname is already used in this company');
  } else if (await other.where('cname', '=', address.cname).executeTakeFirst()) {
    throw conflict('cname is already used by another event');
  }
}

/**
 * Creates an event in a company (spec §4.2 company.event.bind) and answers its id: the nickname, and a
 * custom domain if one is set, must be free; `from` holds what it copies and the settings it starts with.
 */
export async function createEvent(
  db: Kysely<DB>,
  owner: { companyID: number; creatorID: number },
  event: NewEvent,
  now: number,
  from: { copied?: Record<string, unknown>; settings?: Record<string, unknown> } = {},
): Promise<number> {
  // eventID 0: no event yet, so every event of the company counts.
  const none = { eventID: 0, companyID: owner.companyID };
  await checkEventAddress(db, none, { nickname: event.nickname });
  const cname = from.settings?.cname;
  if (typeof cname === 'string') await checkEventAddress(db, none, { cname });
  // Only the seed gives settings (the operator's own demo data): its domain is served as given. Through
  // the API a domain waits for its DNS check (event.edit, cname.ts).
  const settings = typeof cname === 'string' ? { ...from.settings, cnameAsked: cname, cnameState: 'verified' } : from.settings; // prettier-ignore
  return insertRow(db, 'event', 'eventID', newEventRow(event, owner, now, { ...from, settings }));
}

/** Every stored column of an event (what a sibling or template copy starts from). */
export const eventRow = (db: Kysely<DB>, eventID: number) =>
  db.selectFrom('event').selectAll().where('eventID', '=', eventID).executeTakeFirst();

/** A new event takes the event tags of the event it was made from. */
export async function copyEventTags(db: Kysely<DB>, fromEventID: number, toEventID: number): Promise<void> {
  const tags = await db.selectFrom('eventTag').select('tagID').where('eventID', '=', fromEventID).execute();
  if (tags.length > 0)
    await db
      .insertInto('eventTag')
      .values(tags.map((t) => ({ eventID: toEventID, tagID: t.tagID })))
      .execute();
}

/** Whether anyone may read the event's content (visible, public, not a template): what an anonymous listener may hear of. */
export async function isOpenEvent(db: Kysely<DB>, eventID: number): Promise<boolean> {
  const row = await db
    .selectFrom('event')
    .select(['visible', 'public', 'isTemplate'])
    .where('eventID', '=', eventID)
    .executeTakeFirst();
  return row !== undefined && row.visible === 1 && row.public === 1 && row.isTemplate !== 1;
}

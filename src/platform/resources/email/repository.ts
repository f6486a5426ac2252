import type { Kysely, Selectable } from 'kysely';
import type { DB, EmailLogTable } from '../../db/schema.ts';

export type EmailLogRow = Selectable<EmailLogTable>;
export type EmailStatus = EmailLogRow['status'];

/** Whether the event's company has the confirmationEmail tool on (one indexed read). */
export async function confirmationOn(db: Kysely<DB>, eventID: number): Promise<boolean> {
  const row = await db
    .selectFrom('event')
    .innerJoin('companyTool', 'companyTool.companyID', 'event.companyID')
    .select('companyTool.confirmationEmail')
    .where('event.eventID', '=', eventID)
    .executeTakeFirst();
  return row?.confirmationEmail === 1;
}

/** What the log row of a message starts as. */
export interface LogStart {
  readonly eventID: number;
  readonly personID: number;
  readonly eventEmailID: number;
  readonly kind: EmailLogRow['kind'];
  readonly idem: string;
  readonly to: string;
}

/**
 * The log row of the message `start.idem` names: made now (status queued), or the one an earlier run
 * made. Two runs meet on the unique idem.
 */
export async function logRowOf(db: Kysely<DB>, start: LogStart, now: number): Promise<EmailLogRow> {
  await db
    .insertInto('emailLog')
    .values({ ...start, date: now, updatedDate: now })
    .onConflict((oc) => oc.column('idem').doNothing())
    .execute();
  return db.selectFrom('emailLog').selectAll().where('idem', '=', start.idem).executeTakeFirstOrThrow();
}

/**
 * Moves a log row from one of `from` to `to` (with the other columns given); false when another run
 * moved it first, so only one run ever sends.
 */
export async function moveLog(
  db: Kysely<DB>,
  emailLogID: number,
  from: readonly EmailStatus[],
  to: EmailStatus,
  set: Partial<Pick<EmailLogRow, 'messageID' | 'from' | 'subject' | 'reason' | 'to'>> & { attempts?: number },
  now: number,
): Promise<boolean> {
  const r = await db
    .updateTable('emailLog')
    .set({ ...set, status: to, updatedDate: now })
    .where('emailLogID', '=', emailLogID)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** Whether the address is on the event's suppression list. */
export async function isSuppressed(db: Kysely<DB>, eventID: number, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('eventBlacklist')
    .select('eventBlacklistID')
    .where('eventID', '=', eventID)
    .where('email', '=', email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

/** Puts the address on the event's suppression list (once; the first reason stays). */
export async function suppress(db: Kysely<DB>, eventID: number, email: string, reason: string, now: number) {
  await db
    .insertInto('eventBlacklist')
    .values({ eventID, email: email.toLowerCase(), reason: reason.slice(0, 500), date: now })
    .onConflict((oc) => oc.columns(['eventID', 'email']).doNothing())
    .execute();
}

/** What the registration confirmation says: the event, its company's namespace, the attendee. */
export async function confirmationData(db: Kysely<DB>, eventID: number, personID: number) {
  return db
    .selectFrom('eventPerson')
    .innerJoin('event', 'event.eventID', 'eventPerson.eventID')
    .innerJoin('company', 'company.companyID', 'event.companyID')
    .select([
      'eventPerson.email',
      'eventPerson.firstName',
      'eventPerson.name',
      'eventPerson.language as personLanguage',
      'eventPerson.qrCode',
      'eventPerson.approved',
      'event.name as eventName',
      'event.dateBegin',
      'event.dateEnd',
      'event.timezone',
      'event.language',
      'event.placeName',
      'event.address',
      'event.city',
      'event.nickname',
      'event.cname',
      'event.emailAddress',
      'event.emailName',
      'company.namespace',
    ]) // prettier-ignore
    .where('eventPerson.eventID', '=', eventID)
    .where('eventPerson.personID', '=', personID)
    .executeTakeFirst();
}
export type ConfirmationData = NonNullable<Awaited<ReturnType<typeof confirmationData>>>;

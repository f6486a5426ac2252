import type { Kysely, Selectable } from 'kysely';
import type { DB, EmailLogTable } from '../../db/schema.ts';
import { contains } from '../hotsite/content.ts';
import { refund, reserve } from '../billing/repository.ts';

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
  // One round trip: a no-op update of the row an earlier run made answers it as an insert would.
  return db
    .insertInto('emailLog')
    .values({ ...start, date: now, updatedDate: now })
    .onConflict((oc) => oc.column('idem').doUpdateSet((eb) => ({ idem: eb.ref('excluded.idem') })))
    .returningAll()
    .executeTakeFirstOrThrow();
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
  /** Only when the row's attempts are this many (the run that claimed it: a fence against a later run). */
  attempts?: number,
): Promise<boolean> {
  const r = await db
    .updateTable('emailLog')
    .set({ ...set, status: to, updatedDate: now })
    .where('emailLogID', '=', emailLogID)
    .where('status', 'in', [...from])
    .$if(attempts !== undefined, (q) => q.where('attempts', '=', attempts!))
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

/** A custom e-mail as event.email.* answers it (`sent` counted from the log). */
export async function emailRecords(db: Kysely<DB>, where: { eventID: number } | { eventEmailID: number }) {
  const rows = await db
    .selectFrom('eventEmail')
    .selectAll('eventEmail')
    .select((s) =>
      s
        .selectFrom('emailLog')
        .select((c) => c.fn.countAll<number>().as('n'))
        .whereRef('emailLog.eventEmailID', '=', 'eventEmail.eventEmailID')
        .where('emailLog.kind', '=', 'custom')
        .where('emailLog.status', '=', 'sent')
        .as('sentCount'),
    )
    .$if('eventID' in where, (q) => q.where('eventEmail.eventID', '=', (where as { eventID: number }).eventID))
    .$if('eventEmailID' in where, (q) =>
      q.where('eventEmail.eventEmailID', '=', (where as { eventEmailID: number }).eventEmailID),
    )
    .orderBy('eventEmail.eventEmailID', 'desc')
    .execute();
  return rows.map((r) => ({
    eventEmailID: r.eventEmailID,
    eventID: r.eventID,
    source: r.eventEmailID,
    subject: r.subject,
    text: r.text,
    listID: r.listID,
    date: r.date,
    sent: Number(r.sentCount ?? 0),
    state: r.state,
    tracking: r.tracking,
  }));
}

export const emailByID = (db: Kysely<DB>, eventEmailID: number) =>
  db.selectFrom('eventEmail').selectAll().where('eventEmailID', '=', eventEmailID).executeTakeFirst();

/** The next `limit` recipients of a dispatch after personID `after`: approved attendees with an address. */
export async function recipientsAfter(db: Kysely<DB>, eventID: number, listID: number, after: number, limit: number) {
  const rows = await db
    .selectFrom('eventPerson')
    .select('eventPerson.personID')
    .where('eventPerson.eventID', '=', eventID)
    .where('eventPerson.approved', '=', 1)
    .where('eventPerson.email', 'like', '%@%')
    .where('eventPerson.personID', '>', after)
    .$if(listID > 0, (q) =>
      q.where('eventPerson.personID', 'in', (s) =>
        s.selectFrom('listPerson').select('listPerson.personID').where('listPerson.listID', '=', listID),
      ),
    )
    .orderBy('eventPerson.personID')
    .limit(limit)
    .execute();
  return rows.map((r) => r.personID);
}

/** Who a custom e-mail goes to: the event's profile of an attendee, else the person (a test to an admin). */
export async function recipientOf(db: Kysely<DB>, eventID: number, personID: number) {
  const attendee = await db
    .selectFrom('eventPerson')
    .select(['email', 'firstName', 'lastName', 'name', 'qrCode'])
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  if (attendee) return attendee;
  const person = await db
    .selectFrom('person')
    .select(['email', 'firstName', 'lastName', 'name', 'username'])
    .where('personID', '=', personID)
    .executeTakeFirst();
  if (!person) return undefined;
  return { ...person, email: person.email || person.username, qrCode: '' };
}

/** The event's log rows as the wire's e-mail log (spec §2.6), latest first. */
export async function logRows(
  db: Kysely<DB>,
  eventID: number,
  eventEmailID: number | undefined,
  limit: number,
  offset: number,
) {
  const rows = await db
    .selectFrom('emailLog')
    .selectAll()
    .where('eventID', '=', eventID)
    .$if(eventEmailID !== undefined, (q) => q.where('eventEmailID', '=', eventEmailID!))
    .orderBy('emailLogID', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => ({
    emailLogID: r.emailLogID,
    eventID: r.eventID,
    memberID: r.personID,
    listEmailID: r.eventEmailID,
    messageID: r.messageID,
    from: r.from,
    to: r.to,
    subject: r.subject,
    status: r.status,
    reason: r.reason,
    opens: r.opens,
    date: r.date,
    kind: r.kind,
  }));
}

/** Whether the list is one of the event's. */
export async function isEventList(db: Kysely<DB>, eventID: number, listID: number): Promise<boolean> {
  const row = await db
    .selectFrom('list')
    .select('listID')
    .where('listID', '=', listID)
    .where('eventID', '=', eventID)
    .executeTakeFirst();
  return row !== undefined;
}

/** A new custom e-mail (a draft); answers its id. */
export async function createEmail(
  db: Kysely<DB>,
  values: { eventID: number; subject: string; text: string; listID: number; date: number },
): Promise<number> {
  const row = await db.insertInto('eventEmail').values(values).returning('eventEmailID').executeTakeFirstOrThrow();
  return row.eventEmailID;
}

/** Sets the subject or text of a custom e-mail. */
export async function setEmailField(
  db: Kysely<DB>,
  eventEmailID: number,
  column: 'subject' | 'text' | 'tracking',
  value: string | number,
) {
  await db
    .updateTable('eventEmail')
    .set({ [column]: value })
    .where('eventEmailID', '=', eventEmailID)
    .execute();
}

/** Moves a draft to 'dispatching'; false when it was dispatched already (only one dispatch ever starts). */
export async function startDispatch(db: Kysely<DB>, eventEmailID: number): Promise<boolean> {
  const r = await db
    .updateTable('eventEmail')
    .set({ state: 'dispatching' })
    .where('eventEmailID', '=', eventEmailID)
    .where('state', '=', '')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The log row a bounce report names by its Message-ID (<log-<emailLogID>@domain>). */
export async function logRowByMessageID(db: Kysely<DB>, messageID: string) {
  const m = /^<?log-(\d{1,15})@[^<>\s]+?>?$/.exec(messageID.trim());
  if (!m) return undefined;
  const wanted = messageID.trim().replace(/^<?/, '<').replace(/>?$/, '>');
  return db
    .selectFrom('emailLog')
    .selectAll()
    .where('emailLogID', '=', Number(m[1]))
    .where('messageID', '=', wanted)
    .executeTakeFirst();
}

/** A bounce reported after the message left: the row says failed (hard) or keeps its status (soft), with why. */
export async function markBounced(db: Kysely<DB>, emailLogID: number, hard: boolean, reason: string, now: number) {
  await db
    .updateTable('emailLog')
    .set({ ...(hard ? { status: 'failed' as const } : {}), reason: reason.slice(0, 500), updatedDate: now })
    .where('emailLogID', '=', emailLogID)
    .execute();
}

/** Counts one open of a message whose custom e-mail has tracking on; false when it has not (or no such row). */
export async function countOpen(db: Kysely<DB>, emailLogID: number): Promise<boolean> {
  const r = await db
    .updateTable('emailLog')
    .set((e) => ({ opens: e('opens', '+', 1) }))
    .where('emailLogID', '=', emailLogID)
    .where('eventEmailID', 'in', (s) => s.selectFrom('eventEmail').select('eventEmailID').where('tracking', '=', 1))
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** The event's suppression list, by address; `query` keeps addresses containing it. */
export function blacklistOf(db: Kysely<DB>, eventID: number, query: string | undefined, limit: number, offset: number) {
  return db
    .selectFrom('eventBlacklist')
    .select(['eventBlacklistID', 'eventID', 'email', 'reason', 'date'])
    .where('eventID', '=', eventID)
    .$if(query !== undefined && query !== '', (q) => q.where(contains('email', query!)))
    .orderBy('email')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** Takes an entry off the list; answers it, or undefined when there was none. */
export async function unsuppress(db: Kysely<DB>, eventBlacklistID: number) {
  const row = await db
    .selectFrom('eventBlacklist')
    .select(['eventBlacklistID', 'eventID', 'email', 'reason', 'date'])
    .where('eventBlacklistID', '=', eventBlacklistID)
    .executeTakeFirst();
  if (row) await db.deleteFrom('eventBlacklist').where('eventBlacklistID', '=', eventBlacklistID).execute();
  return row;
}

/** Whether the person has had (or is being sent) the custom e-mail: its log row exists (idem of bulk.ts). */
export async function hadEmail(db: Kysely<DB>, eventEmailID: number, personID: number): Promise<boolean> {
  const row = await db
    .selectFrom('emailLog')
    .select('emailLogID')
    .where('idem', '=', `email:${eventEmailID}:${personID}`)
    .executeTakeFirst();
  return row !== undefined;
}

/** An attendee's e-mail address in the event, or undefined when the person is not one of its attendees. */
export async function attendeeEmail(db: Kysely<DB>, eventID: number, personID: number): Promise<string | undefined> {
  const row = await db
    .selectFrom('eventPerson')
    .select('email')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  return row?.email;
}

/**
 * Takes one unit of the event's e-mail balance for this message and notes it on its log row, in one
 * transaction. Answers the billing row; `empty` when no unit is left; `taken` when a later run has claimed
 * the message since (`attempts` is no longer the row's): then nothing is taken.
 */
export async function holdUnit(
  db: Kysely<DB>,
  emailLogID: number,
  attempts: number,
  eventID: number,
  allowance: number,
): Promise<number | 'empty' | 'taken'> {
  const taken = new Error('taken');
  try {
    return await db.transaction().execute(async (trx) => {
      const billingID = await reserve(trx, eventID, 'email', allowance);
      if (billingID === undefined) return 'empty';
      const r = await trx
        .updateTable('emailLog')
        .set({ billingID })
        .where('emailLogID', '=', emailLogID)
        .where('attempts', '=', attempts)
        .executeTakeFirst();
      // Thrown to roll the unit back.
      if (Number(r.numUpdatedRows) !== 1) throw taken;
      return billingID;
    });
  } catch (err) {
    if (err === taken) return 'taken';
    throw err;
  }
}

/** Gives the message's unit back (it did not leave), and the row no longer holds one. */
export async function releaseUnit(db: Kysely<DB>, emailLogID: number, billingID: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await refund(trx, billingID);
    await trx.updateTable('emailLog').set({ billingID: 0 }).where('emailLogID', '=', emailLogID).execute();
  });
}

import type { Kysely } from 'kysely';
import type { DB, SmsLogTable } from '../../db/schema.ts';
import type { Selectable } from 'kysely';

export type SmsStatus = Selectable<SmsLogTable>['status'];

/** SMS asked for in the last hour: to one number, of one event, by one network address. */
export async function recentCounts(
  db: Kysely<DB>,
  since: number,
  o: { telephone: string; eventID: number; address: string },
) {
  const count = (where: 'telephone' | 'eventID' | 'address', value: string | number) =>
    db
      .selectFrom('smsLog')
      .select((s) => s.fn.countAll<number>().as('n'))
      .where(where, '=', value as never)
      .where('date', '>', since)
      .executeTakeFirstOrThrow()
      .then((r) => Number(r.n));
  const [telephone, event, address] = await Promise.all([
    count('telephone', o.telephone),
    count('eventID', o.eventID),
    count('address', o.address),
  ]);
  return { telephone, event, address };
}

export async function insertSms(
  db: Kysely<DB>,
  values: { eventID: number; telephone: string; text: string; address: string; now: number },
) {
  const row = await db
    .insertInto('smsLog')
    .values({
      eventID: values.eventID,
      telephone: values.telephone,
      text: values.text,
      address: values.address,
      date: values.now,
      updatedDate: values.now,
    })
    .returning('smsLogID')
    .executeTakeFirstOrThrow();
  return row.smsLogID;
}

export const smsByID = (db: Kysely<DB>, smsLogID: number) =>
  db.selectFrom('smsLog').selectAll().where('smsLogID', '=', smsLogID).executeTakeFirst();

/** Compare-and-set of a row's status: false when another run moved it first. */
export async function moveSms(
  db: Kysely<DB>,
  smsLogID: number,
  from: readonly SmsStatus[],
  to: SmsStatus,
  reason: string,
  now: number,
) {
  const r = await db
    .updateTable('smsLog')
    .set({ status: to, reason: reason.slice(0, 500), updatedDate: now })
    .where('smsLogID', '=', smsLogID)
    .where('status', 'in', [...from])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/** What the SMS of an event says and whether the public may ask for one. */
export const smsEvent = (db: Kysely<DB>, eventID: number) =>
  db
    .selectFrom('event')
    .innerJoin('company', 'company.companyID', 'event.companyID')
    .select([
      'event.eventID',
      'event.name',
      'event.nickname',
      'event.cname',
      'event.visible',
      'event.smsText',
      'company.namespace',
    ])
    .where('event.eventID', '=', eventID)
    .executeTakeFirst();

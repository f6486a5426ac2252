import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { contains } from '../hotsite/content.ts';

/** The senders of an event as the wire has them (with the person's name and username), by senderID. */
export function senderRows(
  db: Kysely<DB>,
  where: { eventID: number; personID?: number; senderID?: number; query?: string },
  limit = 100,
  offset = 0,
) {
  return (
    db
      .selectFrom('eventSender')
      // The organizer as this event and its company know them (their registration, or their company
      // membership), never the platform's person row: a company sees only what people gave to its events.
      .innerJoin('event', 'event.eventID', 'eventSender.eventID')
      .leftJoin('eventPerson', (j) =>
        j
          .onRef('eventPerson.eventID', '=', 'eventSender.eventID')
          .onRef('eventPerson.personID', '=', 'eventSender.personID'),
      )
      .leftJoin('companyPerson', (j) =>
        j
          .onRef('companyPerson.companyID', '=', 'event.companyID')
          .onRef('companyPerson.personID', '=', 'eventSender.personID'),
      )
      .select((e) => [
        'eventSender.senderID',
        'eventSender.eventID',
        'eventSender.personID',
        'eventSender.senderName',
        'eventSender.senderEmail',
        'eventSender.senderDNS',
        'eventSender.state',
        'eventSender.checkedDate',
        e.fn.coalesce('eventPerson.name', 'companyPerson.name', e.val('')).as('name'),
        e.fn.coalesce('eventPerson.username', 'companyPerson.email', e.val('')).as('username'),
      ])
      .where('eventSender.eventID', '=', where.eventID)
      .$if(where.personID !== undefined, (q) => q.where('eventSender.personID', '=', where.personID!))
      .$if(where.senderID !== undefined, (q) => q.where('eventSender.senderID', '=', where.senderID!))
      .$if(where.query !== undefined && where.query !== '', (q) =>
        q.where((e) =>
          e.or([contains('eventSender.senderEmail', where.query!), contains('eventSender.senderName', where.query!)]),
        ),
      ) // prettier-ignore
      .orderBy('eventSender.senderID')
      .limit(limit)
      .offset(offset)
      .execute()
      .then((rows) => rows.map((r) => ({ ...r, name: r.name ?? '', username: r.username ?? '' })))
  );
}

/** Whether the person may own a sender of the event: one of its people, or a person of its company. */
export async function personOfEvent(db: Kysely<DB>, eventID: number, personID: number): Promise<boolean> {
  const inEvent = await db
    .selectFrom('eventPerson')
    .select('personID')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  if (inEvent) return true;
  const inCompany = await db
    .selectFrom('companyPerson')
    .innerJoin('event', 'event.companyID', 'companyPerson.companyID')
    .select('companyPerson.personID')
    .where('event.eventID', '=', eventID)
    .where('companyPerson.personID', '=', personID)
    .executeTakeFirst();
  return inCompany !== undefined;
}

/**
 * Sets a sender's name or address (making the sender when the person has none in the event). A new
 * address forgets the last check: it has to be checked again before it is used as From.
 */
export async function setSender(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  column: 'senderName' | 'senderEmail',
  value: string,
  now: number,
) {
  await db
    .insertInto('eventSender')
    .values({ eventID, personID, date: now })
    .onConflict((oc) => oc.columns(['eventID', 'personID']).doNothing())
    .execute();
  const q = db.updateTable('eventSender').where('eventID', '=', eventID).where('personID', '=', personID);
  if (column === 'senderEmail')
    await q
      .set({ senderEmail: value, senderDNS: '', state: '', checkedDate: 0 })
      .where('senderEmail', '!=', value)
      .execute();
  else await q.set({ senderName: value }).execute();
}

/** Marks a sender as being checked; answers its row (undefined when none). */
export async function startCheck(db: Kysely<DB>, eventID: number, personID: number) {
  await db
    .updateTable('eventSender')
    .set({ state: 'checking' })
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .execute();
  return db
    .selectFrom('eventSender')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
}

/** Stores a check's result, when the sender still has the address that was checked. */
export async function storeCheck(
  db: Kysely<DB>,
  senderID: number,
  email: string,
  result: { senderDNS: string; verified: boolean },
  now: number,
) {
  const r = await db
    .updateTable('eventSender')
    .set({ senderDNS: result.senderDNS, state: result.verified ? 'verified' : 'unverified', checkedDate: now })
    .where('senderID', '=', senderID)
    .where('senderEmail', '=', email)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export const senderByID = (db: Kysely<DB>, senderID: number) =>
  db.selectFrom('eventSender').selectAll().where('senderID', '=', senderID).executeTakeFirst();

/**
 * Who the event's mail comes from. `verified`: a verified sender — the one whose address is the
 * event's emailAddress, else the first verified one. Else `replyTo`: the event's emailAddress, else its
 * first sender's address (replies still reach the organizer while From is the platform's).
 */
export async function eventSenders(db: Kysely<DB>, eventID: number, emailAddress: string) {
  const rows = await db
    .selectFrom('eventSender')
    .select(['senderName', 'senderEmail', 'state'])
    .where('eventID', '=', eventID)
    .where('senderEmail', '!=', '')
    .orderBy('senderID')
    .execute();
  const own = emailAddress.toLowerCase();
  const verified = rows.filter((r) => r.state === 'verified');
  const sender = verified.find((r) => r.senderEmail === own) ?? verified[0];
  return {
    verified: sender ? { name: sender.senderName, address: sender.senderEmail } : undefined,
    replyTo: own || rows[0]?.senderEmail || '',
  };
}

import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { DB, EventGuestTable } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import { guestWire } from '../../../shared/wire/guest.ts';
import { recordOf, type RecordOf } from '../records.ts';

// The store of guests (migration 0014, docs/api/guests.md): the people an attendee brings to an event.

export type GuestRow = Selectable<EventGuestTable>;
export type GuestRecord = RecordOf<typeof guestWire>;
const guest = recordOf(guestWire);

const num = (r: GuestRow): GuestRow => ({ ...r, eventGuestID: Number(r.eventGuestID), dateCreated: Number(r.dateCreated) }); // prettier-ignore

export function guestRecord(r: GuestRow): GuestRecord {
  return guest({
    eventGuestID: r.eventGuestID,
    eventID: r.eventID,
    personID: r.eventGuestID,
    hostID: r.hostID,
    name: r.name,
    email: r.email,
    date: r.dateCreated,
  });
}

export async function guestOf(db: Kysely<DB>, eventID: number, guestID: number): Promise<GuestRow | undefined> {
  const row = await db
    .selectFrom('eventGuest')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('eventGuestID', '=', guestID)
    .executeTakeFirst();
  return row && num(row);
}

export async function insertGuest(
  db: Kysely<DB>,
  values: { eventID: number; hostID: number; name: string; email: string; dateCreated: number },
): Promise<GuestRow> {
  return num(await db.insertInto('eventGuest').values(values).returningAll().executeTakeFirstOrThrow());
}

export async function updateGuest(
  db: Kysely<DB>,
  guestID: number,
  values: Partial<{ name: string; email: string }>,
): Promise<void> {
  await db.updateTable('eventGuest').set(values).where('eventGuestID', '=', guestID).execute();
}

export async function deleteGuest(db: Kysely<DB>, guestID: number): Promise<void> {
  await db.deleteFrom('eventGuest').where('eventGuestID', '=', guestID).execute();
}

/** The guests of one host in the event (an attendee leaving the event takes them along). */
export async function deleteGuestsOf(db: Kysely<DB>, eventID: number, hostID: number): Promise<void> {
  await db.deleteFrom('eventGuest').where('eventID', '=', eventID).where('hostID', '=', hostID).execute();
}

export async function guestCount(db: Kysely<DB>, eventID: number, hostID?: number): Promise<number> {
  let q = db
    .selectFrom('eventGuest')
    .select((s) => s.fn.countAll<number>().as('n'))
    .where('eventID', '=', eventID);
  if (hostID !== undefined) q = q.where('hostID', '=', hostID);
  return Number((await q.executeTakeFirstOrThrow()).n);
}

/**
 * The places of the event's capacity taken: its approved attendees (counted only up to `cap`, all a
 * capacity check needs) and its guests (spec §2.2 guestsForMember: guests count against capacity).
 */
export async function placesTaken(db: Kysely<DB>, eventID: number, cap: number): Promise<number> {
  const row = await db
    .selectFrom((s) =>
      s
        .selectFrom('eventPerson')
        .select('personID')
        .where('eventID', '=', eventID)
        .where('approved', '=', 1)
        .limit(cap)
        .as('approvedRows'),
    )
    .select((s) => s.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n) + (await guestCount(db, eventID));
}

/** The event's guests (of one host when `hostID` is given), filtered by a part of the name or e-mail. */
export function findGuests(
  db: Kysely<DB>,
  eventID: number,
  o: { hostID?: number; query?: string; page: Page },
): Promise<Paged<GuestRecord>> {
  let q = db.selectFrom('eventGuest').selectAll().where('eventID', '=', eventID);
  if (o.hostID !== undefined) q = q.where('hostID', '=', o.hostID);
  if (o.query) {
    const like = `%${o.query.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    q = q.where((w) =>
      w.or((['name', 'email'] as const).map((c) => sql<SqlBool>`lower(${sql.ref(c)}) like ${like} escape '\\'`)),
    );
  }
  return readPage(db, q.orderBy('eventGuestID'), o.page, (rows) => rows.map((r) => guestRecord(num(r))));
}

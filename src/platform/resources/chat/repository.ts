import { sql, type Kysely, type Selectable } from 'kysely';
import type { ChatTable, DB } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';

// The store of chat messages (migration 0015): messages between two people of one event.

export type ChatRow = Selectable<ChatTable>;

/** What chat's rules need of a person of the event: whether they are one, and whether private. */
export interface Member {
  personID: number;
  private: number;
  name: string;
}

const num = (r: ChatRow): ChatRow => ({ ...r, chatID: Number(r.chatID), date: Number(r.date) });

/** A person's registration in the event, or undefined when they have none. */
export async function memberOf(db: Kysely<DB>, eventID: number, personID: number): Promise<Member | undefined> {
  const row = await db
    .selectFrom('eventPerson')
    .select(['personID', 'private', 'name', 'firstName', 'lastName'])
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  return row && { personID: row.personID, private: row.private, name: nameOf(row) };
}

const nameOf = (r: { name: string; firstName: string; lastName: string }) =>
  r.name !== '' ? r.name : `${r.firstName} ${r.lastName}`.trim();

/** The names of people as the event knows them, by personID; those not registered by their own name. */
export async function namesOf(db: Kysely<DB>, eventID: number, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('eventPerson')
    .select(['personID', 'name', 'firstName', 'lastName'])
    .where('eventID', '=', eventID)
    .where('personID', 'in', [...new Set(ids)])
    .execute();
  const names = new Map(rows.map((r) => [r.personID, nameOf(r)]));
  const missing = ids.filter((i) => !names.has(i));
  for (const [k, v] of await personNames(db, missing)) names.set(k, v);
  return names;
}

export async function insertChat(
  db: Kysely<DB>,
  values: Pick<ChatRow, 'eventID' | 'senderID' | 'receiverID' | 'message' | 'date'>,
): Promise<ChatRow> {
  return num(await db.insertInto('chat').values(values).returningAll().executeTakeFirstOrThrow());
}

export async function chatByID(db: Kysely<DB>, chatID: number): Promise<ChatRow | undefined> {
  const row = await db.selectFrom('chat').selectAll().where('chatID', '=', chatID).executeTakeFirst();
  return row && num(row);
}

/** The messages between `me` and `other` in the event, newest first. */
export async function conversation(
  db: Kysely<DB>,
  eventID: number,
  me: number,
  other: number,
  page: Page,
): Promise<Paged<ChatRow>> {
  const query = db
    .selectFrom('chat')
    .selectAll()
    .where('eventID', '=', eventID)
    .where((e) =>
      e.or([
        e.and([e('senderID', '=', me), e('receiverID', '=', other)]),
        e.and([e('senderID', '=', other), e('receiverID', '=', me)]),
      ]),
    )
    .orderBy('chatID', 'desc');
  return readPage(db, query, page, (rows) => rows.map(num));
}

/** One conversation of the list: the other person, their newest message's id, and their unread messages. */
export interface Contact {
  personID: number;
  lastChatID: number;
  unread: number;
}

/** The people `me` has exchanged messages with in the event, the most recent conversation first. */
export async function contacts(db: Kysely<DB>, eventID: number, me: number, page: Page): Promise<Paged<Contact>> {
  // One row per message with the other person named, grouped in an outer query: PostgreSQL would not
  // take the same CASE with its own parameters in both the select list and the GROUP BY.
  const mine = db
    .selectFrom('chat')
    .select([
      sql<number>`case when ${sql.ref('senderID')} = ${me} then ${sql.ref('receiverID')} else ${sql.ref('senderID')} end`.as(
        'other',
      ),
      'chatID',
      sql<number>`case when ${sql.ref('receiverID')} = ${me} and ${sql.ref('viewed')} = 0 then 1 else 0 end`.as(
        'unseen',
      ),
    ])
    .where('eventID', '=', eventID)
    .where((e) => e.or([e('senderID', '=', me), e('receiverID', '=', me)]))
    .as('mine');
  const query = db
    .selectFrom(mine)
    .select([
      'mine.other as personID',
      (e) => e.fn.max('mine.chatID').as('lastChatID'),
      (e) => e.fn.sum<number>('mine.unseen').as('unread'),
    ])
    .groupBy('mine.other')
    .orderBy('lastChatID', 'desc');
  return readPage(db, query, page, (rows) =>
    rows.map((r) => ({ personID: Number(r.personID), lastChatID: Number(r.lastChatID), unread: Number(r.unread) })),
  );
}

export async function chatsByID(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, ChatRow>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom('chat').selectAll().where('chatID', 'in', ids).execute();
  return new Map(rows.map((r) => [Number(r.chatID), num(r)]));
}

/** Marks what `other` sent `me` in the event as viewed; answers how many messages that was. */
export async function markViewed(db: Kysely<DB>, eventID: number, me: number, other: number): Promise<number> {
  const r = await db
    .updateTable('chat')
    .set({ viewed: 1 })
    .where('eventID', '=', eventID)
    .where('receiverID', '=', me)
    .where('senderID', '=', other)
    .where('viewed', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows);
}

/** The receiver and sender of a message (the push channel chat/send reads it after the commit). */
export async function chatParties(
  db: Kysely<DB>,
  chatID: number,
): Promise<{ eventID: number; senderID: number; receiverID: number } | undefined> {
  return db
    .selectFrom('chat')
    .select(['eventID', 'senderID', 'receiverID'])
    .where('chatID', '=', chatID)
    .executeTakeFirst();
}

/** Whether `from` has written to `to` in the event (an organizer who is not registered can be answered). */
export async function hasWritten(db: Kysely<DB>, eventID: number, from: number, to: number): Promise<boolean> {
  const row = await db
    .selectFrom('chat')
    .select('chatID')
    .where('eventID', '=', eventID)
    .where('senderID', '=', from)
    .where('receiverID', '=', to)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Names of people by their identity (those not registered in the event: an organizer who wrote). */
export async function personNames(db: Kysely<DB>, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .selectFrom('person')
    .select(['personID', 'name', 'firstName', 'lastName'])
    .where('personID', 'in', [...new Set(ids)])
    .execute();
  return new Map(rows.map((r) => [r.personID, nameOf(r)]));
}

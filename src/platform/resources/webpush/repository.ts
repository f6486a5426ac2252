import type { Kysely, Selectable } from 'kysely';
import type { DB, WebPushTable } from '../../db/schema.ts';

// Web Push subscriptions (migration 0008): one row per browser and event, with its saved sessions in
// webPushActivity. A browser is known by its endpoint; binding again replaces its keys and sessions.

export type Subscription = Selectable<WebPushTable>;

export interface NewSubscription {
  readonly eventID: number;
  readonly endpoint: string;
  readonly p256dh: string;
  readonly auth: string;
  readonly page: string;
  readonly address: string;
  readonly activityIDs: readonly number[];
  readonly now: number;
}

/** The ids among `activityIDs` that are sessions of `eventID`. */
export async function sessionsOf(db: Kysely<DB>, eventID: number, activityIDs: readonly number[]): Promise<number[]> {
  if (activityIDs.length === 0) return [];
  const rows = await db
    .selectFrom('activity')
    .select('activityID')
    .where('eventID', '=', eventID)
    .where('activityID', 'in', [...activityIDs])
    .execute();
  return rows.map((r) => Number(r.activityID)).sort((a, b) => a - b);
}

/** The subscription of this browser (endpoint) in this event. */
export function subscriptionByEndpoint(
  db: Kysely<DB>,
  eventID: number,
  endpoint: string,
): Promise<Subscription | undefined> {
  return db
    .selectFrom('webPush')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('endpoint', '=', endpoint)
    .executeTakeFirst();
}

/** How many subscriptions the event holds, in all and from one client network. */
export async function countSubscriptions(
  db: Kysely<DB>,
  eventID: number,
  address: string,
): Promise<{ all: number; fromAddress: number }> {
  const [all, mine] = await Promise.all([
    db
      .selectFrom('webPush')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('eventID', '=', eventID)
      .executeTakeFirst(),
    db
      .selectFrom('webPush')
      .select((e) => e.fn.countAll<number>().as('n'))
      .where('eventID', '=', eventID)
      .where('address', '=', address)
      .executeTakeFirst(),
  ]);
  return { all: Number(all?.n ?? 0), fromAddress: Number(mine?.n ?? 0) };
}

/** Writes the subscription (a new one, or this endpoint's again) with exactly `activityIDs`; answers its id. */
export async function saveSubscription(trx: Kysely<DB>, s: NewSubscription): Promise<number> {
  const existing = await subscriptionByEndpoint(trx, s.eventID, s.endpoint);
  let pushID: number;
  if (existing) {
    pushID = Number(existing.pushID);
    await trx
      .updateTable('webPush')
      .set({ p256dh: s.p256dh, auth: s.auth, page: s.page })
      .where('pushID', '=', pushID)
      .execute();
    await trx.deleteFrom('webPushActivity').where('pushID', '=', pushID).execute();
  } else {
    const row = await trx
      .insertInto('webPush')
      .values({
        eventID: s.eventID,
        endpoint: s.endpoint,
        p256dh: s.p256dh,
        auth: s.auth,
        page: s.page,
        address: s.address,
        dateCreated: s.now,
      })
      .returning('pushID')
      .executeTakeFirstOrThrow();
    pushID = Number(row.pushID);
  }
  if (s.activityIDs.length > 0)
    await trx
      .insertInto('webPushActivity')
      .values(s.activityIDs.map((activityID) => ({ pushID, activityID })))
      .execute();
  return pushID;
}

/** Deletes subscriptions and their sessions. */
export async function deleteSubscriptions(trx: Kysely<DB>, pushIDs: readonly number[]): Promise<void> {
  if (pushIDs.length === 0) return;
  await trx
    .deleteFrom('webPushActivity')
    .where('pushID', 'in', [...pushIDs])
    .execute();
  await trx
    .deleteFrom('webPush')
    .where('pushID', 'in', [...pushIDs])
    .execute();
}

/** Whether any browser of the event saved one of `activityIDs` (a write asks before adding a job). */
export async function anySubscriber(db: Kysely<DB>, eventID: number, activityIDs: readonly number[]): Promise<boolean> {
  if (activityIDs.length === 0) return false;
  const row = await db
    .selectFrom('webPushActivity')
    .innerJoin('webPush', 'webPush.pushID', 'webPushActivity.pushID')
    .select('webPush.pushID')
    .where('webPush.eventID', '=', eventID)
    .where('webPushActivity.activityID', 'in', [...activityIDs])
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** The subscriptions of the event that saved any of `activityIDs`, each with those of them it saved. */
export async function subscribersOf(
  db: Kysely<DB>,
  eventID: number,
  activityIDs: readonly number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (activityIDs.length === 0) return out;
  const rows = await db
    .selectFrom('webPushActivity')
    .innerJoin('webPush', 'webPush.pushID', 'webPushActivity.pushID')
    .select(['webPushActivity.pushID', 'webPushActivity.activityID'])
    .where('webPush.eventID', '=', eventID)
    .where('webPushActivity.activityID', 'in', [...activityIDs])
    .orderBy('webPushActivity.pushID')
    .orderBy('webPushActivity.activityID')
    .execute();
  for (const r of rows) {
    const pushID = Number(r.pushID);
    out.set(pushID, [...(out.get(pushID) ?? []), Number(r.activityID)]);
  }
  return out;
}

/** One subscription by id. */
export function subscriptionByID(db: Kysely<DB>, pushID: number): Promise<Subscription | undefined> {
  return db.selectFrom('webPush').selectAll().where('pushID', '=', pushID).executeTakeFirst();
}

/** Deletes the subscriptions of events that ended before `now` (Unix seconds); answers how many. */
export async function pruneEndedSubscriptions(db: Kysely<DB>, now: number): Promise<number> {
  const ended = await db
    .selectFrom('webPush')
    .innerJoin('event', 'event.eventID', 'webPush.eventID')
    .select('webPush.pushID')
    .where('event.dateEnd', '>', 0)
    .where('event.dateEnd', '<', now)
    .execute();
  // An event removed since has no row to join: its subscriptions go too.
  const orphans = await db
    .selectFrom('webPush')
    .leftJoin('event', 'event.eventID', 'webPush.eventID')
    .select('webPush.pushID')
    .where('event.eventID', 'is', null)
    .execute();
  const ids = [...ended, ...orphans].map((r) => Number(r.pushID));
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    await db.transaction().execute((trx) => deleteSubscriptions(trx, chunk));
  }
  return ids.length;
}

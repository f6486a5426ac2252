import { sql, type Kysely, type Selectable } from 'kysely';
import type { BeaconActionTable, BeaconTable, DB } from '../../db/schema.ts';
import { readPage, type Page } from '../../db/page.ts';

// The store of beacons (migration 0019, docs/api/beacons.md). Rows are answered with ids as numbers (the
// change log reads the written object's id from the answer) and every other value as a string.

export type BeaconRow = Selectable<BeaconTable>;
export type ActionRow = Selectable<BeaconActionTable>;

export type Shaped = Record<string, string> & Record<`${string}ID`, number>;
const value = (k: string, v: unknown) =>
  k.endsWith('ID') ? Number(v) : v === null || v === undefined ? '' : String(v);
export const stringify = (row: Record<string, unknown>): Shaped =>
  Object.fromEntries(Object.entries(row).map(([k, v]) => [k, value(k, v)])) as Shaped;

/** Adds a beacon; undefined when the company has one of the same uuid/major/minor. */
export async function insertBeacon(
  db: Kysely<DB>,
  values: Pick<BeaconRow, 'companyID' | 'uuid' | 'major' | 'minor' | 'name' | 'date'>,
): Promise<Record<string, string> | undefined> {
  const row = await db
    .insertInto('beacon')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && stringify(row);
}

export function beaconsOf(db: Kysely<DB>, companyID: number, page: Page) {
  const q = db
    .selectFrom('beacon')
    .selectAll()
    .where('companyID', '=', companyID)
    .orderBy('uuid')
    .orderBy('major')
    .orderBy('minor')
    .orderBy('beaconID');
  return readPage(db, q, page, (rows) => rows.map(stringify));
}

export async function beaconOfCompany(db: Kysely<DB>, companyID: number, beaconID: number) {
  const row = await db
    .selectFrom('beacon')
    .selectAll()
    .where('companyID', '=', companyID)
    .where('beaconID', '=', beaconID)
    .executeTakeFirst();
  return row && stringify(row);
}

export async function removeBeacon(db: Kysely<DB>, beaconID: number): Promise<void> {
  await db.deleteFrom('beacon').where('beaconID', '=', beaconID).execute();
}

/** The company's beacons of this minor (several when they differ in uuid or major). */
export async function beaconIDsByMinor(db: Kysely<DB>, companyID: number, minor: number): Promise<number[]> {
  const rows = await db
    .selectFrom('beacon')
    .select('beaconID')
    .where('companyID', '=', companyID)
    .where('minor', '=', minor)
    .orderBy('beaconID')
    .execute();
  return rows.map((r) => Number(r.beaconID));
}

/** The event's bound beacons of this minor. */
export async function boundIDsByMinor(db: Kysely<DB>, eventID: number, minor: number): Promise<number[]> {
  const rows = await db
    .selectFrom('beaconEvent')
    .innerJoin('beacon', 'beacon.beaconID', 'beaconEvent.beaconID')
    .select('beaconEvent.beaconID')
    .where('beaconEvent.eventID', '=', eventID)
    .where('beacon.minor', '=', minor)
    .orderBy('beaconEvent.beaconID')
    .execute();
  return rows.map((r) => Number(r.beaconID));
}

/** Binds a beacon to an event, or sets the placement of the binding it has already. */
export async function bindBeacon(
  db: Kysely<DB>,
  values: { eventID: number; beaconID: number; type?: string; range?: string; extra?: string; date: number },
): Promise<number> {
  const set = Object.fromEntries(
    Object.entries({ type: values.type, range: values.range, extra: values.extra }).filter(([, v]) => v !== undefined),
  );
  const existing = await db
    .selectFrom('beaconEvent')
    .select('beaconEventID')
    .where('eventID', '=', values.eventID)
    .where('beaconID', '=', values.beaconID)
    .executeTakeFirst();
  if (existing) {
    if (Object.keys(set).length > 0)
      await db.updateTable('beaconEvent').set(set).where('beaconEventID', '=', existing.beaconEventID).execute();
    return Number(existing.beaconEventID);
  }
  const row = await db
    .insertInto('beaconEvent')
    .values({ eventID: values.eventID, beaconID: values.beaconID, date: values.date, ...set })
    .returning('beaconEventID')
    .executeTakeFirstOrThrow();
  return Number(row.beaconEventID);
}

export async function unbindBeacon(db: Kysely<DB>, beaconEventID: number): Promise<void> {
  await db.deleteFrom('beaconEvent').where('beaconEventID', '=', beaconEventID).execute();
}

function beaconEvents(db: Kysely<DB>, activeOnly: boolean) {
  return db
    .selectFrom('beaconEvent')
    .innerJoin('beacon', 'beacon.beaconID', 'beaconEvent.beaconID')
    .select((e) => [
      'beaconEvent.beaconEventID',
      'beaconEvent.eventID',
      'beaconEvent.beaconID',
      'beaconEvent.type',
      'beaconEvent.range',
      'beaconEvent.extra',
      'beacon.uuid',
      'beacon.major',
      'beacon.minor',
      'beacon.name',
      e
        .selectFrom('beaconAction')
        .select((a) => a.fn.countAll<number>().as('n'))
        .whereRef('beaconAction.beaconEventID', '=', 'beaconEvent.beaconEventID')
        .$if(activeOnly, (q) => q.where('beaconAction.active', '=', 1))
        .as('actions'),
      'beaconEvent.date',
    ]);
}

/** One bound beacon, with its identity and the count of its actions. */
export async function beaconEventByID(db: Kysely<DB>, beaconEventID: number, activeOnly = false) {
  const row = await beaconEvents(db, activeOnly)
    .where('beaconEvent.beaconEventID', '=', beaconEventID)
    .executeTakeFirst();
  return row && stringify(row);
}

export async function beaconEventOf(db: Kysely<DB>, eventID: number, beaconID: number) {
  const row = await beaconEvents(db, false)
    .where('beaconEvent.eventID', '=', eventID)
    .where('beaconEvent.beaconID', '=', beaconID)
    .executeTakeFirst();
  return row && stringify(row);
}

/** The event's bound beacons; `hasAction`: only those with an action (an active one when `activeOnly`). */
export function beaconEventsOf(db: Kysely<DB>, eventID: number, hasAction: boolean, activeOnly: boolean, page: Page) {
  const q = beaconEvents(db, activeOnly)
    .where('beaconEvent.eventID', '=', eventID)
    .$if(hasAction, (q) =>
      q.where((e) =>
        e.exists(
          e
            .selectFrom('beaconAction')
            .select('beaconAction.beaconActionID')
            .whereRef('beaconAction.beaconEventID', '=', 'beaconEvent.beaconEventID')
            .$if(activeOnly, (q) => q.where('beaconAction.active', '=', 1)),
        ),
      ),
    )
    .orderBy('beacon.minor')
    .orderBy('beaconEvent.beaconEventID');
  return readPage(db, q, page, (rows) => rows.map(stringify));
}

const actions = (db: Kysely<DB>) =>
  db
    .selectFrom('beaconAction')
    .innerJoin('beaconEvent', 'beaconEvent.beaconEventID', 'beaconAction.beaconEventID')
    .select([
      'beaconAction.beaconActionID',
      'beaconAction.beaconEventID',
      'beaconAction.eventID',
      'beaconEvent.beaconID',
      'beaconAction.type',
      'beaconAction.title',
      'beaconAction.message',
      'beaconAction.url',
      'beaconAction.active',
      'beaconAction.date',
    ]);

export async function insertAction(
  db: Kysely<DB>,
  values: Pick<ActionRow, 'beaconEventID' | 'eventID' | 'type' | 'title' | 'message' | 'url' | 'date'>,
): Promise<number> {
  const row = await db.insertInto('beaconAction').values(values).returning('beaconActionID').executeTakeFirstOrThrow();
  return Number(row.beaconActionID);
}

export async function actionByID(db: Kysely<DB>, beaconActionID: number) {
  const row = await actions(db).where('beaconAction.beaconActionID', '=', beaconActionID).executeTakeFirst();
  return row && stringify(row);
}

export async function updateAction(db: Kysely<DB>, beaconActionID: number, column: string, value: unknown) {
  await db
    .updateTable('beaconAction')
    .set({ [column]: value })
    .where('beaconActionID', '=', beaconActionID)
    .execute();
}

export async function removeAction(db: Kysely<DB>, beaconActionID: number): Promise<void> {
  await db.deleteFrom('beaconAction').where('beaconActionID', '=', beaconActionID).execute();
}

export function actionsOf(
  db: Kysely<DB>,
  eventID: number,
  beaconEventID: number | undefined,
  activeOnly: boolean,
  page: Page,
) {
  const q = actions(db)
    .where('beaconAction.eventID', '=', eventID)
    .$if(beaconEventID !== undefined, (q) => q.where('beaconAction.beaconEventID', '=', beaconEventID!))
    .$if(activeOnly, (q) => q.where('beaconAction.active', '=', 1))
    .orderBy('beaconAction.beaconEventID')
    .orderBy('beaconAction.beaconActionID');
  return readPage(db, q, page, (rows) => rows.map(stringify));
}

/** Whether a person is an attendee (any level) of the event. */
export async function isAttendee(db: Kysely<DB>, eventID: number, personID: number): Promise<boolean> {
  const row = await db
    .selectFrom('eventPerson')
    .select('personID')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  return row !== undefined;
}

/** The person's meeting of the action at or after `since`, if any. */
export async function recentLog(db: Kysely<DB>, beaconActionID: number, personID: number, since: number) {
  const row = await db
    .selectFrom('beaconLog')
    .selectAll()
    .where('beaconActionID', '=', beaconActionID)
    .where('personID', '=', personID)
    .where('date', '>=', since)
    .orderBy('beaconLogID', 'desc')
    .executeTakeFirst();
  return row && stringify(row);
}

export async function insertLog(
  db: Kysely<DB>,
  values: { eventID: number; beaconEventID: number; beaconActionID: number; personID: number; date: number },
) {
  const row = await db.insertInto('beaconLog').values(values).returningAll().executeTakeFirstOrThrow();
  return stringify(row);
}

/** Meetings and different people of one beacon event's actions, or of the whole event's. */
export async function countLogs(db: Kysely<DB>, eventID: number, beaconEventID: number | undefined) {
  const row = await db
    .selectFrom('beaconLog')
    .select((e) => [
      e.fn.countAll<number>().as('count'),
      sql<number>`count(distinct ${e.ref('personID')})`.as('people'),
    ])
    .where('eventID', '=', eventID)
    .$if(beaconEventID !== undefined, (q) => q.where('beaconEventID', '=', beaconEventID!))
    .executeTakeFirstOrThrow();
  return { count: String(Number(row.count)), people: String(Number(row.people)) };
}

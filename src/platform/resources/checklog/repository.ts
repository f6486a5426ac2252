import { createHash, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { ChecklogTable, DB } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import { LEVEL } from '../../auth/levels.ts';

// The store of check-in (migration 0012): the log of scans and who is inside each entrance now.

export type ChecklogRow = Selectable<ChecklogTable>;
export type Direction = ChecklogRow['direction'];

/** Who a code names: what a scan's answer and its rules need of the attendee. */
export interface Holder {
  personID: number;
  approved: number;
  name: string;
  firstName: string;
  lastName: string;
}

/**
 * The code's leading characters that select candidates through the (eventID, qrCode) index. The
 * rest is compared in constant time: the store's lookup time can tell at most whether some code
 * starts with these characters (36 bits of a 144-bit code), never how much of the rest is right.
 */
const SELECTOR = 6;
const CANDIDATES = 32;
const digest = (s: string) => createHash('sha256').update(s).digest();

/** The attendee of `eventID` whose qrCode is `code`, compared in constant time; undefined if none. */
export async function holderOf(db: Kysely<DB>, eventID: number, code: string): Promise<Holder | undefined> {
  if (code.length < SELECTOR) return undefined;
  const selector = code.slice(0, SELECTOR);
  const columns = ['personID', 'approved', 'name', 'firstName', 'lastName', 'qrCode'] as const;
  const base = db.selectFrom('eventPerson').select(columns).where('eventID', '=', eventID);
  let candidates = await base
    .where('qrCode', '>=', selector)
    // '~' sorts after every character a code holds (base64url, letters, digits).
    .where('qrCode', '<', `${selector}~`)
    .limit(CANDIDATES)
    .execute();
  // Codes that are not random (imported, sequential) may share their first characters: then the
  // index finds the code itself.
  if (candidates.length === CANDIDATES) candidates = await base.where('qrCode', '=', code).execute();
  const wanted = digest(code);
  let found: Holder | undefined;
  // Every candidate is compared, whichever matches.
  for (const { qrCode, ...holder } of candidates)
    if (timingSafeEqual(digest(qrCode), wanted) && qrCode !== '') found = holder;
  return found;
}

const hexDigest = (code: string) => createHash('sha256').update(code).digest('hex');

/**
 * Keeps the code of a registration being cancelled (migration 0034): only its hash, never who held it.
 * Called before the attendee's row goes, in the same transaction.
 */
export async function keepCancelledCode(db: Kysely<DB>, eventID: number, code: string, now: number): Promise<void> {
  if (code === '') return;
  await db
    .insertInto('cancelledCode')
    .values({ eventID, codeHash: hexDigest(code), cancelledAt: now })
    .onConflict((oc) => oc.columns(['eventID', 'codeHash']).doUpdateSet({ cancelledAt: now }))
    .execute();
}

/** Whether `code` was the code of a registration of `eventID` that was cancelled. */
export async function wasCancelled(db: Kysely<DB>, eventID: number, code: string): Promise<boolean> {
  const row = await db
    .selectFrom('cancelledCode')
    .select('eventID')
    .where('eventID', '=', eventID)
    .where('codeHash', '=', hexDigest(code))
    .executeTakeFirst();
  return row !== undefined;
}

/** How long after its event ended a cancelled code is still told apart at the door (late offline queues). */
export const CANCELLED_KEPT_SECONDS = 7 * 86400;

/** Forgets the cancelled codes of events that ended over CANCELLED_KEPT_SECONDS ago (the hourly prune). */
export async function pruneCancelledCodes(db: Kysely<DB>, now: number): Promise<void> {
  const ended = db
    .selectFrom('event')
    .select('eventID')
    .where('dateEnd', '>', 0)
    .where('dateEnd', '<', now - CANCELLED_KEPT_SECONDS);
  await db.deleteFrom('cancelledCode').where('eventID', 'in', ended).execute();
}

const num = (r: ChecklogRow): ChecklogRow => ({ ...r, checklogID: Number(r.checklogID), date: Number(r.date), createdAt: Number(r.createdAt) }); // prettier-ignore

/** A scan already logged with this nonce in the event. */
export async function logByNonce(db: Kysely<DB>, eventID: number, nonce: string): Promise<ChecklogRow | undefined> {
  const row = await db
    .selectFrom('checklog')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('nonce', '=', nonce)
    .executeTakeFirst();
  return row && num(row);
}

export async function logByScanKey(db: Kysely<DB>, eventID: number, scanKey: string): Promise<ChecklogRow | undefined> {
  const row = await db
    .selectFrom('checklog')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('scanKey', '=', scanKey)
    .executeTakeFirst();
  return row && num(row);
}

/**
 * Logs a scan, its answer still to be decided; undefined when the same scan (scanKey) or nonce is
 * logged already. On PostgreSQL a concurrent identical scan waits here for the first one's commit.
 */
export async function claimScan(
  db: Kysely<DB>,
  values: Omit<ChecklogRow, 'checklogID' | 'result' | 'reason'>,
): Promise<number | undefined> {
  const row = await db
    .insertInto('checklog')
    .values({ ...values, result: 'refused', reason: '' })
    .onConflict((oc) => oc.doNothing())
    .returning('checklogID')
    .executeTakeFirst();
  return row && Number(row.checklogID);
}

export async function settleScan(
  db: Kysely<DB>,
  checklogID: number,
  result: ChecklogRow['result'],
  reason: string,
): Promise<void> {
  await db.updateTable('checklog').set({ result, reason }).where('checklogID', '=', checklogID).execute();
}

type Door = { eventID: number; activityID: number; personID: number };

/** The person's first entry through this door: true if this call made it (one row per person and door). */
export async function firstEntry(db: Kysely<DB>, door: Door, date: number): Promise<boolean> {
  const row = await db
    .insertInto('checkState')
    .values({ ...door, inside: 1, entries: 1, firstAt: date, lastAt: date })
    .onConflict((oc) => oc.doNothing())
    .returning('personID')
    .executeTakeFirst();
  return row !== undefined;
}

/** Moves a person in (inside 0 → 1, one more entry) or out (1 → 0); false when already so. */
export async function move(db: Kysely<DB>, door: Door, inside: 0 | 1, date: number): Promise<boolean> {
  const r = await db
    .updateTable('checkState')
    .set({ inside, lastAt: date, ...(inside ? { entries: sql<number>`${sql.ref('entries')} + 1` } : {}) })
    .where('eventID', '=', door.eventID)
    .where('activityID', '=', door.activityID)
    .where('personID', '=', door.personID)
    .where('inside', '=', 1 - inside)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Marks the attendee present (spec §3 `present`) at their first entry through the event's door. */
export async function markPresent(db: Kysely<DB>, eventID: number, personID: number): Promise<void> {
  await db
    .updateTable('eventPerson')
    .set({ present: 1 })
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .execute();
}

export async function activityInEvent(
  db: Kysely<DB>,
  eventID: number,
  activityID: number,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('activity')
    .select('name')
    .where('activityID', '=', activityID)
    .where('eventID', '=', eventID)
    .executeTakeFirst();
  return row?.name;
}

/**
 * Per door of the event: inside now, people ever in, entries; refused scans — a person already inside
 * scanned in again (`already inside`) not among them: a valid ticket scanned twice is no one turned away
 * — and those repeats apart. For the entrance, the approved attendees and how many of them are inside.
 */
export async function doorCounts(db: Kysely<DB>, eventID: number) {
  const states = await db
    .selectFrom('checkState')
    .select((e) => [
      'activityID',
      e.fn.sum<number>('inside').as('inside'),
      e.fn.countAll<number>().as('checkedIn'),
      e.fn.sum<number>('entries').as('entries'),
    ])
    .where('eventID', '=', eventID)
    .groupBy('activityID')
    .execute();
  // Refused scans and repeats (a second scan of someone inside: a valid ticket, no refusal), per door.
  const reasons = await db
    .selectFrom('checklog')
    .select((e) => ['activityID', 'reason', e.fn.countAll<number>().as('n')])
    .where('eventID', '=', eventID)
    .where('result', '=', 'refused')
    .groupBy(['activityID', 'reason'])
    .execute();
  const names = await db.selectFrom('activity').select(['activityID', 'name']).where('eventID', '=', eventID).execute();
  // The attendees expected at the door: approved registrations with the User level. The event's own
  // people — staff, admins, collectors, presenters, interpreters bound without User — are approved
  // registrations too (approved defaults to 1), and counting them made the door's "inside now 3 of N"
  // promise people who never come through it. A member with User and another level (an attendee who
  // also helps) registered to attend, and is counted.
  const attendees = (q: typeof db) =>
    q
      .selectFrom('eventPerson')
      .where('eventPerson.eventID', '=', eventID)
      .where('approved', '=', 1)
      .where(sql<SqlBool>`(${sql.ref('level')} & ${sql.lit(LEVEL.USER)}) <> 0`);
  const { n } = await attendees(db)
    .select((e) => e.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  // Of those, the ones inside the entrance now: "inside" also counts staff and presenters scanned in,
  // so "inside N of M approved" could read more than M.
  const { inside } = await attendees(db)
    .innerJoin('checkState', (j) =>
      j
        .onRef('checkState.personID', '=', 'eventPerson.personID')
        .on('checkState.eventID', '=', eventID)
        .on('checkState.activityID', '=', 0)
        .on('checkState.inside', '=', 1),
    )
    .select((e) => e.fn.countAll<number>().as('inside'))
    .executeTakeFirstOrThrow();
  const countOf = (reason: (r: string) => boolean) => {
    const byDoor = new Map<number, number>();
    for (const r of reasons)
      if (reason(r.reason ?? ''))
        byDoor.set(Number(r.activityID), (byDoor.get(Number(r.activityID)) ?? 0) + Number(r.n));
    return byDoor;
  };
  return {
    approved: Number(n),
    attendeesInside: Number(inside),
    doors: states.map((s) => ({ ...s, activityID: Number(s.activityID) })),
    refused: countOf((reason) => reason !== 'already inside'),
    repeats: countOf((reason) => reason === 'already inside'),
    names: new Map(names.map((a) => [a.activityID, a.name])),
  };
}

/** The people inside a door now, longest inside first. */
export function insideNow(db: Kysely<DB>, eventID: number, activityID: number, page: Page) {
  const q = db
    .selectFrom('checkState')
    .innerJoin('eventPerson', (j) =>
      j
        .onRef('eventPerson.eventID', '=', 'checkState.eventID')
        .onRef('eventPerson.personID', '=', 'checkState.personID'),
    )
    .select([
      'checkState.personID',
      'eventPerson.name',
      'eventPerson.firstName',
      'eventPerson.lastName',
      'checkState.entries',
      'checkState.firstAt',
      'checkState.lastAt',
    ])
    .where('checkState.eventID', '=', eventID)
    .where('checkState.activityID', '=', activityID)
    .where('checkState.inside', '=', 1)
    .orderBy('checkState.lastAt')
    .orderBy('checkState.personID');
  return readPage(db, q, page);
}

export type LogEntry = ChecklogRow & { name: string; firstName: string; lastName: string; email: string };

/** The log, newest first: every scan, or those of people whose label was printed; `query` matches names and e-mail. */
export function logOf(
  db: Kysely<DB>,
  eventID: number,
  filter: { printed: boolean; query?: string; activityID?: number },
  page: Page,
): Promise<Paged<LogEntry>> {
  let q = db
    .selectFrom('checklog')
    .innerJoin('eventPerson', (j) =>
      j.onRef('eventPerson.eventID', '=', 'checklog.eventID').onRef('eventPerson.personID', '=', 'checklog.personID'),
    )
    .selectAll('checklog')
    .select(['eventPerson.name', 'eventPerson.firstName', 'eventPerson.lastName', 'eventPerson.email'])
    .where('checklog.eventID', '=', eventID);
  if (filter.printed) q = q.where('eventPerson.prints', '>', 0);
  if (filter.activityID !== undefined) q = q.where('checklog.activityID', '=', filter.activityID);
  if (filter.query) {
    const like = `%${filter.query.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    const columns = ['eventPerson.name', 'eventPerson.email', 'eventPerson.firstName', 'eventPerson.lastName'];
    q = q.where((e) => e.or(columns.map((c) => sql<SqlBool>`lower(${sql.ref(c)}) like ${like} escape '\\'`)));
  }
  return readPage(
    db,
    q.orderBy('checklog.checklogID', 'desc'),
    page,
    (rows) =>
    rows.map((r) => ({ ...num(r as ChecklogRow), name: r.name, firstName: r.firstName, lastName: r.lastName, email: r.email })), // prettier-ignore
  );
}

import type { Kysely } from 'kysely';
import type { DaemonTable, DB } from '../../db/schema.ts';
import type { Daemon } from '../../../shared/wire/daemon.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import type { Item } from './targets.ts';

// Bulk daemons (issue 17, migration 0022): a daemon row and the refusals of its items. Progress moves on
// by compare-and-set on `done` (markApplied, markFailed): the item's write and the step of `done` are one
// transaction, and a step from a `done` that another run already moved fails — the item is rolled back
// rather than applied twice (docs/api/daemons.md "Restarts").

export type DaemonRow = {
  daemonID: number;
  companyID: number;
  eventID: number;
  personID: number;
  scope: 'system' | 'event';
  scopeTargetID: number;
  operation: string;
  target: string;
  targetID: number;
  resourceID: number;
  resourceType: string;
  resources: string;
  extra: string;
  state: DaemonTable['state'];
  total: number;
  done: number;
  applied: number;
  failed: number;
  error: string;
  date: number;
  started: number;
  finished: number;
};

const COLUMNS = [
  'daemonID', 'companyID', 'eventID', 'personID', 'scope', 'scopeTargetID', 'operation', 'target', 'targetID',
  'resourceID', 'resourceType', 'resources', 'extra', 'state', 'total', 'done', 'applied', 'failed', 'error',
  'date', 'started', 'finished',
] as const; // prettier-ignore

/** Timestamps are bigint: numbers whatever the driver gave. */
const numbers = (r: Record<string, unknown>): DaemonRow =>
  ({ ...r, date: Number(r.date), started: Number(r.started), finished: Number(r.finished) }) as DaemonRow;

/** How many refusals a record lists (`failed` counts them all). */
export const ERRORS_LISTED = 100;

export async function insertDaemon(
  db: Kysely<DB>,
  values: Omit<DaemonRow, 'daemonID' | 'done' | 'applied' | 'failed' | 'error' | 'started' | 'finished'>,
): Promise<DaemonRow> {
  return numbers(await db.insertInto('daemon').values(values).returning(COLUMNS).executeTakeFirstOrThrow());
}

export async function daemonByID(db: Kysely<DB>, daemonID: number): Promise<DaemonRow | undefined> {
  const row = await db.selectFrom('daemon').select(COLUMNS).where('daemonID', '=', daemonID).executeTakeFirst();
  return row && numbers(row);
}

/** The items of a daemon, as stored. */
export const itemsOf = (row: DaemonRow): Item[] => JSON.parse(row.resources) as Item[];

/**
 * An event's daemons, newest first: of `operation`, of `target` (undefined: every target), only
 * `personID`'s when given.
 */
export function findDaemons(
  db: Kysely<DB>,
  f: { eventID: number; operation: string; target?: string; personID?: number; daemonID?: number; state?: string },
  page: Page,
): Promise<Paged<DaemonRow>> {
  let q = db.selectFrom('daemon').select(COLUMNS).where('eventID', '=', f.eventID).where('operation', '=', f.operation);
  if (f.target !== undefined) q = q.where('target', '=', f.target);
  if (f.personID !== undefined) q = q.where('personID', '=', f.personID);
  if (f.daemonID !== undefined) q = q.where('daemonID', '=', f.daemonID);
  if (f.state === 'pending') q = q.where('state', 'in', ['queued', 'running']);
  else if (f.state === 'finished') q = q.where('state', 'in', ['done', 'failed']);
  else if (f.state !== undefined) q = q.where('state', '=', f.state as DaemonRow['state']);
  return readPage(db, q.orderBy('daemonID', 'desc'), page, (rows) => rows.map(numbers));
}

/** The first ERRORS_LISTED refusals of each daemon, by daemonID, in item order. */
export async function errorsOf(
  db: Kysely<DB>,
  daemonIDs: readonly number[],
): Promise<Map<number, { item: number; error: string }[]>> {
  const out = new Map<number, { item: number; error: string }[]>();
  if (daemonIDs.length === 0) return out;
  const rows = await db
    .selectFrom('daemonError')
    .select(['daemonID', 'item', 'error'])
    .where('daemonID', 'in', daemonIDs)
    .orderBy('daemonID')
    .orderBy('item')
    .execute();
  for (const r of rows) {
    const list = out.get(r.daemonID) ?? [];
    if (list.length < ERRORS_LISTED) list.push({ item: r.item, error: r.error });
    out.set(r.daemonID, list);
  }
  return out;
}

/** The wire record. */
export function daemonRecord(row: DaemonRow, errors: readonly { item: number; error: string }[]): Daemon {
  const items = itemsOf(row);
  return {
    daemonID: String(row.daemonID),
    companyID: String(row.companyID),
    eventID: String(row.eventID),
    memberID: String(row.personID),
    operation: row.operation,
    target: row.target,
    targetID: String(row.targetID),
    resourceID: String(row.resourceID),
    resourceType: row.resourceType,
    state: row.state,
    total: String(row.total),
    progress: String(row.done),
    applied: String(row.applied),
    failed: String(row.failed),
    errors: errors.map((e) => ({
      item: String(e.item),
      resource: typeof items[e.item] === 'number' ? String(items[e.item]) : '',
      error: e.error,
    })),
    error: row.error,
    date: String(row.date),
    started: String(row.started),
    finished: String(row.finished),
  };
}

/** queued → running (a later run of a running daemon changes nothing). False when it is not to run. */
export async function startDaemon(db: Kysely<DB>, daemonID: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('daemon')
    .set({ state: 'running', started: now })
    .where('daemonID', '=', daemonID)
    .where('state', '=', 'queued')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Item `item` applied: inside its write's transaction. False when another run has done it already. */
export async function markApplied(trx: Kysely<DB>, daemonID: number, item: number): Promise<boolean> {
  const r = await trx
    .updateTable('daemon')
    .set((e) => ({ done: e('done', '+', 1), applied: e('applied', '+', 1) }))
    .where('daemonID', '=', daemonID)
    .where('done', '=', item)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/** Item `item` refused with `error` (one line). False when another run has done it already. */
export async function markFailed(db: Kysely<DB>, daemonID: number, item: number, error: string): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const r = await trx
      .updateTable('daemon')
      .set((e) => ({ done: e('done', '+', 1), failed: e('failed', '+', 1) }))
      .where('daemonID', '=', daemonID)
      .where('done', '=', item)
      .where('state', '=', 'running')
      .executeTakeFirst();
    if (Number(r.numUpdatedRows) === 0) return false;
    await trx
      .insertInto('daemonError')
      .values({ daemonID, item, error: error.slice(0, 300) })
      .execute();
    return true;
  });
}

/** running → done or failed (with why), inside the transaction that records the change. */
export async function finishDaemon(
  trx: Kysely<DB>,
  daemonID: number,
  state: 'done' | 'failed',
  now: number,
  error = '',
): Promise<boolean> {
  const r = await trx
    .updateTable('daemon')
    .set({ state, finished: now, error: error.slice(0, 300) })
    .where('daemonID', '=', daemonID)
    .where('state', 'in', ['queued', 'running'])
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

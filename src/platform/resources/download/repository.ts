import type { Kysely } from 'kysely';
import type { DB, DownloadTable } from '../../db/schema.ts';
import type { Download } from '../../../shared/wire/download.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';

// The download center (issue 17, migration 0017): reports asked with format=excel-daemon, built by a
// job (src/platform/reports), their files kept in the store in pieces (downloadChunk) so that every
// process reaches them. A build is numbered (`attempt`): the pieces of a build a restart cut short are
// told apart from those of the build that finishes, and dropped when it does.

export type DownloadRow = {
  downloadID: number;
  companyID: number;
  eventID: number;
  personID: number;
  scope: 'system' | 'event';
  targetID: number;
  title: string;
  type: string;
  params: string;
  secret: string;
  state: DownloadTable['state'];
  rows: number;
  size: number;
  attempt: number;
  error: string;
  date: number;
  finished: number;
  expires: number;
};

const COLUMNS = [
  'download.downloadID',
  'download.companyID',
  'download.eventID',
  'download.personID',
  'download.scope',
  'download.targetID',
  'download.title',
  'download.type',
  'download.params',
  'download.secret',
  'download.state',
  'download.rows',
  'download.size',
  'download.attempt',
  'download.error',
  'download.date',
  'download.finished',
  'download.expires',
] as const;

const numbers = <R extends Record<string, unknown>>(r: R): R => ({
  ...r,
  size: Number(r.size),
  date: Number(r.date),
  finished: Number(r.finished),
  expires: Number(r.expires),
});

export async function insertDownload(
  db: Kysely<DB>,
  values: Omit<DownloadRow, 'downloadID' | 'rows' | 'size' | 'attempt' | 'error' | 'finished' | 'expires'>,
): Promise<DownloadRow> {
  const row = await db.insertInto('download').values(values).returning(COLUMNS).executeTakeFirstOrThrow();
  return numbers(row) as DownloadRow;
}

export async function downloadByID(db: Kysely<DB>, downloadID: number): Promise<DownloadRow | undefined> {
  const row = await db.selectFrom('download').select(COLUMNS).where('downloadID', '=', downloadID).executeTakeFirst();
  return row && (numbers(row) as DownloadRow);
}

/** A download with the names its record shows: who asked, the event. */
export type ListedDownload = DownloadRow & { memberName: string; eventName: string };

/** The company's reports, the newest first; only `personID`'s when given. */
export function findDownloads(
  db: Kysely<DB>,
  companyID: number,
  personID: number | undefined,
  page: Page,
): Promise<Paged<ListedDownload>> {
  let query = db
    .selectFrom('download')
    .leftJoin('person', 'person.personID', 'download.personID')
    .leftJoin('event', 'event.eventID', 'download.eventID')
    .select(COLUMNS)
    .select((e) => [
      e.fn.coalesce('person.name', e.val('')).as('memberName'),
      e.fn.coalesce('event.name', e.val('')).as('eventName'),
    ])
    .where('download.companyID', '=', companyID);
  if (personID !== undefined) query = query.where('download.personID', '=', personID);
  return readPage(db, query.orderBy('download.downloadID', 'desc'), page, (rows) =>
    rows.map((r) => numbers(r) as unknown as ListedDownload),
  );
}

/** The names a record shows, for one download (the answer of format=excel-daemon). */
export async function namesOf(db: Kysely<DB>, row: DownloadRow): Promise<ListedDownload> {
  const person = await db.selectFrom('person').select('name').where('personID', '=', row.personID).executeTakeFirst();
  const event = row.eventID
    ? await db.selectFrom('event').select('name').where('eventID', '=', row.eventID).executeTakeFirst()
    : undefined;
  return { ...row, memberName: person?.name ?? '', eventName: event?.name ?? '' };
}

/** What a report's state reads as now: a ready file past its time is expired. */
export const stateOf = (row: DownloadRow, now: number): Download['state'] =>
  row.state === 'ready' && row.expires <= now ? 'expired' : row.state;

/** The wire record; `url` is where download.file serves the file. */
export function downloadRecord(row: ListedDownload, now: number, apiUrl: string): Download {
  return {
    downloadID: String(row.downloadID),
    companyID: String(row.companyID),
    eventID: String(row.eventID),
    memberID: String(row.personID),
    memberName: row.memberName,
    title: row.title,
    event: row.eventName,
    type: row.type,
    url: `${apiUrl}/?action=download.file&downloadID=${row.downloadID}&key=${row.secret}`,
    date: String(row.date),
    state: stateOf(row, now),
    progress: String(row.rows),
    size: String(row.size),
    expires: String(row.expires),
    error: row.error,
  };
}

/**
 * Starts a build: the next attempt, running, nothing written yet. Answers the attempt, or undefined
 * when there is nothing to build (removed, already ready or failed: a job run twice builds once).
 */
export async function startBuild(db: Kysely<DB>, downloadID: number): Promise<number | undefined> {
  const row = await db
    .updateTable('download')
    .set((e) => ({ state: 'running' as const, rows: 0, attempt: e('attempt', '+', 1) }))
    .where('downloadID', '=', downloadID)
    .where('state', 'in', ['queued', 'running'])
    .returning('attempt')
    .executeTakeFirst();
  return row?.attempt;
}

/** Rows written so far by `attempt` (a superseded attempt changes nothing). */
export async function setProgress(db: Kysely<DB>, downloadID: number, attempt: number, rows: number): Promise<boolean> {
  const r = await db
    .updateTable('download')
    .set({ rows })
    .where('downloadID', '=', downloadID)
    .where('attempt', '=', attempt)
    .where('state', '=', 'running')
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function insertChunk(
  db: Kysely<DB>,
  downloadID: number,
  attempt: number,
  seq: number,
  data: Uint8Array,
): Promise<void> {
  await db.insertInto('downloadChunk').values({ downloadID, attempt, seq, data }).execute();
}

/** Drops what a build wrote, to start it again from nothing. */
export async function dropChunks(db: Kysely<DB>, downloadID: number, attempt?: number): Promise<void> {
  let q = db.deleteFrom('downloadChunk').where('downloadID', '=', downloadID);
  if (attempt !== undefined) q = q.where('attempt', '=', attempt);
  await q.execute();
}

/**
 * Marks `attempt`'s file ready (inside the transaction that records the change) and drops the pieces
 * of every other attempt. False when another attempt took over meanwhile.
 */
export async function finishBuild(
  trx: Kysely<DB>,
  downloadID: number,
  attempt: number,
  done: { rows: number; size: number; finished: number; expires: number },
): Promise<boolean> {
  const r = await trx
    .updateTable('download')
    .set({ state: 'ready', ...done, error: '' })
    .where('downloadID', '=', downloadID)
    .where('attempt', '=', attempt)
    .where('state', '=', 'running')
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return false;
  await trx.deleteFrom('downloadChunk').where('downloadID', '=', downloadID).where('attempt', '!=', attempt).execute();
  return true;
}

/** A build that cannot succeed (the caller lost the rights, the list is too long): failed, with why. */
export async function failBuild(
  trx: Kysely<DB>,
  downloadID: number,
  attempt: number,
  error: string,
  finished: number,
): Promise<boolean> {
  const r = await trx
    .updateTable('download')
    .set({ state: 'failed', error: error.slice(0, 300), finished })
    .where('downloadID', '=', downloadID)
    .where('attempt', '=', attempt)
    .executeTakeFirst();
  await dropChunks(trx, downloadID);
  return Number(r.numUpdatedRows) > 0;
}

/** The pieces of a ready file, in order (about 1 MB each). */
export async function fileOf(db: Kysely<DB>, row: DownloadRow): Promise<Uint8Array[]> {
  const rows = await db
    .selectFrom('downloadChunk')
    .select('data')
    .where('downloadID', '=', row.downloadID)
    .where('attempt', '=', row.attempt)
    .orderBy('seq')
    .execute();
  return rows.map((r) => r.data);
}

/** Deletes a report and its file. */
export async function removeDownload(db: Kysely<DB>, downloadID: number): Promise<void> {
  await dropChunks(db, downloadID);
  await db.deleteFrom('download').where('downloadID', '=', downloadID).execute();
}

/** An expired report keeps its record (download.find shows it expired) and loses its file. */
export async function expireFile(db: Kysely<DB>, downloadID: number, now: number): Promise<void> {
  const row = await downloadByID(db, downloadID);
  if (row && row.expires > 0 && row.expires <= now) await dropChunks(db, downloadID);
}

/** The company of an event, or undefined when there is no such event. */
export async function companyOfEvent(db: Kysely<DB>, eventID: number): Promise<number | undefined> {
  const row = await db.selectFrom('event').select('companyID').where('eventID', '=', eventID).executeTakeFirst();
  return row?.companyID;
}

import type { Kysely, Selectable } from 'kysely';
import type { DB, ErrorReportTable } from '../../db/schema.ts';
import { contains } from '../hotsite/content.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';

// The store of client error reports (migration 0015).

export type ErrorReportRow = Selectable<ErrorReportTable>;

const num = (r: ErrorReportRow): ErrorReportRow => ({ ...r, errorID: Number(r.errorID), date: Number(r.date) });

export async function insertReport(
  db: Kysely<DB>,
  values: Omit<ErrorReportRow, 'errorID' | 'solved'>,
): Promise<ErrorReportRow> {
  return num(await db.insertInto('errorReport').values(values).returningAll().executeTakeFirstOrThrow());
}

export async function reportByID(db: Kysely<DB>, errorID: number): Promise<ErrorReportRow | undefined> {
  const row = await db.selectFrom('errorReport').selectAll().where('errorID', '=', errorID).executeTakeFirst();
  return row && num(row);
}

export async function setSolved(db: Kysely<DB>, errorID: number, solved: number): Promise<void> {
  await db.updateTable('errorReport').set({ solved }).where('errorID', '=', errorID).execute();
}

/** The company an event belongs to (a report filed under an event is its company's to read). */
export async function companyOfEvent(db: Kysely<DB>, eventID: number): Promise<number | undefined> {
  const row = await db.selectFrom('event').select('companyID').where('eventID', '=', eventID).executeTakeFirst();
  return row?.companyID;
}

/** The companies a person is an admin of (company level 4). */
export async function adminCompanies(db: Kysely<DB>, personID: number, adminLevel: number): Promise<number[]> {
  const rows = await db
    .selectFrom('companyPerson')
    .select('companyID')
    .where('personID', '=', personID)
    .where('level', '=', adminLevel)
    .execute();
  return rows.map((r) => r.companyID);
}

/** Reports newest first: all of the platform (companyIDs undefined) or those companies'; by state and text. */
export async function findReports(
  db: Kysely<DB>,
  filter: { companyIDs?: readonly number[]; solved?: number; query?: string },
  page: Page,
): Promise<Paged<ErrorReportRow>> {
  let query = db.selectFrom('errorReport').selectAll();
  if (filter.companyIDs !== undefined) {
    if (filter.companyIDs.length === 0) return page.paginated ? { rows: [], total: 0 } : [];
    query = query.where('companyID', 'in', filter.companyIDs);
  }
  if (filter.solved !== undefined) query = query.where('solved', '=', filter.solved);
  if (filter.query !== undefined) {
    const text = filter.query;
    query = query.where((e) => e.or([contains('message', text), contains('platform', text)]));
  }
  return readPage(db, query.orderBy('errorID', 'desc'), page, (rows) => rows.map(num));
}

import { sql, type Insertable, type Kysely, type Selectable, type SqlBool } from 'kysely';
import type { DB, EventApplicantTable } from '../../db/schema.ts';
import { readPage, type Page, type Paged } from '../../db/page.ts';
import { applicantWire } from '../../../shared/wire/applicant.ts';
import { recordOf, type RecordOf } from '../records.ts';

// The store of applications (migration 0014, docs/api/applicants.md): one row per person and event.

export type ApplicationRow = Selectable<EventApplicantTable>;
export type NewApplication = Insertable<EventApplicantTable>;

const num = (r: ApplicationRow): ApplicationRow => ({ ...r, dateCreated: Number(r.dateCreated), approvedDate: Number(r.approvedDate) }); // prettier-ignore

export async function applicationOf(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
): Promise<ApplicationRow | undefined> {
  const row = await db
    .selectFrom('eventApplicant')
    .selectAll()
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  return row && num(row);
}

export async function insertApplication(db: Kysely<DB>, values: NewApplication): Promise<ApplicationRow> {
  return num(await db.insertInto('eventApplicant').values(values).returningAll().executeTakeFirstOrThrow());
}

/** The editable profile fields of an application (event.applicant.operate). */
export const APPLICATION_KEYS = ['firstName', 'lastName', 'email', 'role', 'company', 'telephone'] as const;
export type ApplicationKey = (typeof APPLICATION_KEYS)[number];

export async function updateApplication(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  values: Partial<Record<ApplicationKey | 'name', string>>,
): Promise<void> {
  await db
    .updateTable('eventApplicant')
    .set(values)
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .execute();
}

/** Marks an application approved; false when it was approved already (a second approve changes nothing). */
export async function markApproved(db: Kysely<DB>, eventID: number, personID: number, now: number): Promise<boolean> {
  const r = await db
    .updateTable('eventApplicant')
    .set({ approved: 1, approvedDate: now })
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .where('approved', '=', 0)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function deleteApplication(db: Kysely<DB>, eventID: number, personID: number): Promise<void> {
  await db.deleteFrom('eventApplicant').where('eventID', '=', eventID).where('personID', '=', personID).execute();
}

export type ApplicantSort = 'fullName' | 'firstName' | 'lastName' | 'email' | 'personID';
export type ApplicantSelection = 'all' | 'pending' | 'approved';

/** An event's applications, filtered by a part of the name or e-mail, sorted, one page. */
export function findApplications(
  db: Kysely<DB>,
  eventID: number,
  o: { query?: string; sort: ApplicantSort; order: 'ASC' | 'DESC'; selection: ApplicantSelection; page: Page },
): Promise<Paged<ApplicantRecord>> {
  let q = db.selectFrom('eventApplicant').selectAll().where('eventID', '=', eventID);
  if (o.selection !== 'all') q = q.where('approved', '=', o.selection === 'approved' ? 1 : 0);
  if (o.query) {
    const like = `%${o.query.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    q = q.where((w) =>
      w.or((['name', 'email'] as const).map((c) => sql<SqlBool>`lower(${sql.ref(c)}) like ${like} escape '\\'`)),
    );
  }
  const direction = o.order === 'DESC' ? 'desc' : 'asc';
  const column = o.sort === 'fullName' ? 'name' : o.sort;
  q = q.orderBy(column, direction);
  if (column !== 'personID') q = q.orderBy('personID', direction);
  return readPage(db, q, o.page, (rows) => rows.map((r) => applicantRecord(num(r))));
}

export type ApplicantRecord = RecordOf<typeof applicantWire>;
const applicant = recordOf(applicantWire);

export function applicantRecord(r: ApplicationRow): ApplicantRecord {
  return applicant({
    eventID: r.eventID,
    personID: r.personID,
    name: r.name,
    firstName: r.firstName,
    lastName: r.lastName,
    username: r.username,
    email: r.email,
    role: r.role,
    company: r.company,
    telephone: r.telephone,
    origin: r.origin,
    approved: r.approved,
    date: r.dateCreated,
    approvedDate: r.approvedDate,
  });
}

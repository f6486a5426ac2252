import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { readPage, type Page } from '../../db/page.ts';
import { conflict, notFound } from '../../errors.ts';
import { COMPANY_LEVEL } from '../../auth/levels.ts';
import { companyPeople, countAdmins } from './repository.ts';

// The people of a company (spec §4.3 company.person.*): admins and external users, with the name and
// e-mail the company gave. A company always keeps one admin.

/** Columns company.person.find may order by. */
export const COMPANY_PERSON_ORDERS = {
  personID: 'companyPerson.personID',
  name: 'companyPerson.name',
  email: 'companyPerson.email',
  level: 'companyPerson.level',
} as const;

export const companyPeoplePage = (
  db: Kysely<DB>,
  companyID: number,
  order: keyof typeof COMPANY_PERSON_ORDERS,
  dir: 'asc' | 'desc',
  page: Page,
) =>
  readPage(
    db,
    companyPeople(db, companyID).orderBy(COMPANY_PERSON_ORDERS[order], dir).orderBy('companyPerson.personID'),
    page,
  );

/** One person of the company, or 404 `company person`. */
export async function companyMember(db: Kysely<DB>, companyID: number, personID: number) {
  const member = await companyPeople(db, companyID).where('companyPerson.personID', '=', personID).executeTakeFirst();
  if (!member) throw notFound('company person');
  return member;
}

/** 409 when `member` is the company's last admin and would stop being one (`level` undefined: removed). */
export async function keepAnAdmin(db: Kysely<DB>, companyID: number, member: { level: number }, level?: number) {
  if (member.level === COMPANY_LEVEL.ADMIN && level !== COMPANY_LEVEL.ADMIN && (await countAdmins(db, companyID)) <= 1)
    throw conflict('the company must keep at least one admin');
}

/** Adds a person to the company (409 when they already belong to it) and answers their row. */
export async function addCompanyPerson(
  db: Kysely<DB>,
  companyID: number,
  person: { personID: number; name: string; email: string; level: number },
  now: number,
) {
  const already = await companyPeople(db, companyID)
    .where('companyPerson.personID', '=', person.personID)
    .executeTakeFirst();
  if (already) throw conflict('the person already belongs to this company');
  await db
    .insertInto('companyPerson')
    .values({ companyID, ...person, dateCreated: now })
    .execute();
  return companyPeople(db, companyID).where('companyPerson.personID', '=', person.personID).execute();
}

export async function setCompanyLevel(db: Kysely<DB>, companyID: number, personID: number, level: number) {
  await db
    .updateTable('companyPerson')
    .set({ level })
    .where('companyID', '=', companyID)
    .where('personID', '=', personID)
    .execute();
}

export async function removeCompanyPerson(db: Kysely<DB>, companyID: number, personID: number) {
  await db.deleteFrom('companyPerson').where('companyID', '=', companyID).where('personID', '=', personID).execute();
}

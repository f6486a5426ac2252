import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { hashPassword } from '../../auth/secrets.ts';
import { eventPersonOf } from '../rows.ts';

export interface NewPerson {
  username: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  name?: string;
  password?: string;
  operator?: boolean;
}

function splitName(p: NewPerson) {
  const name = p.name ?? [p.firstName, p.lastName].filter(Boolean).join(' ');
  const [first = '', ...rest] = name.split(' ');
  return { name, firstName: p.firstName ?? first, lastName: p.lastName ?? rest.join(' ') };
}

export async function createPerson(db: Kysely<DB>, p: NewPerson, now: number): Promise<number> {
  const row = await db
    .insertInto('person')
    .values({
      username: p.username.toLowerCase(),
      email: (p.email ?? (p.username.includes('@') ? p.username : '')).toLowerCase(),
      ...splitName(p),
      passwordHash: p.password ? await hashPassword(p.password) : '',
      operator: p.operator ? 1 : 0,
      dateCreated: now,
    })
    .returning('personID')
    .executeTakeFirstOrThrow();
  return row.personID;
}

export function findPersonByUsername(db: Kysely<DB>, username: string) {
  return db.selectFrom('person').selectAll().where('username', '=', username.toLowerCase()).executeTakeFirst();
}

export function findPersonByEmail(db: Kysely<DB>, email: string) {
  const e = email.toLowerCase();
  return db
    .selectFrom('person')
    .selectAll()
    .where((w) => w.or([w('email', '=', e), w('username', '=', e)]))
    .orderBy('personID')
    .executeTakeFirst();
}

/** The hash of the password a person has for one event (spec §5.4 event scope), if any. */
export async function eventPasswordHash(db: Kysely<DB>, eventID: number, personID: number) {
  const member = await eventPersonOf(db, eventID, personID).select('passwordHash').executeTakeFirst();
  return member?.passwordHash || undefined;
}

/** A person's whole row (the caller's own record, person.edit and person.confirm). */
export const personByID = (db: Kysely<DB>, personID: number) =>
  db.selectFrom('person').selectAll().where('personID', '=', personID).executeTakeFirstOrThrow();

/** Whether another person already signs in with, or is reached at, this address. */
export async function emailTaken(db: Kysely<DB>, email: string, personID: number): Promise<boolean> {
  const taken = await db
    .selectFrom('person')
    .select('personID')
    .where((w) => w.or([w('email', '=', email), w('username', '=', email)]))
    .where('personID', '!=', personID)
    .executeTakeFirst();
  return taken !== undefined;
}

/** Sets a new system password and ends every session of the person (their tokens go). */
export async function resetPassword(db: Kysely<DB>, personID: number, passwordHash: string): Promise<void> {
  await db.deleteFrom('token').where('personID', '=', personID).execute();
  await db.updateTable('person').set({ passwordHash }).where('personID', '=', personID).execute();
}

/** `podium admin create` for an existing person: they become a platform operator with this password. */
export async function makeOperator(db: Kysely<DB>, personID: number, passwordHash: string): Promise<void> {
  await db.updateTable('person').set({ operator: 1, passwordHash }).where('personID', '=', personID).execute();
}

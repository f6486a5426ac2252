import type { Kysely } from 'kysely';
import type { DB, Person } from '../../db/schema.ts';
import { hashToken, newToken } from '../../auth/secrets.ts';

// The person row is the identity shared across companies (docs/api.md "People: identity and
// profiles"): login name, e-mail, system password and account names. It changes only with proof:
// the person's own system-scope token (person.edit), or a one-time link sent to the address
// (person.recover → person.confirm). Nothing else in the platform writes it after creation.

/** How long a link sent to an address stays valid. */
export const CONFIRMATION_TTL_SECONDS = 3600;

/** The person's own record: the identity fields of the access token record (spec §2.1). */
export function ownRecord(person: Person, now: number) {
  const { personID, firstName, lastName, name, username, email, image, timezone, telephone } = person;
  const { socialAID, socialBID, socialCID } = person;
  return {
    personID, firstName, lastName, name, username, email, image, timezone, telephone,
    socialAID, socialBID, socialCID, date: now,
  }; // prettier-ignore
}

/** The access token record of spec §2.1: the person's own record, the token and its scope. */
export function tokenRecord(
  person: Person,
  token: { tokenID: string; scope: 'system' | 'event'; targetID: number },
  now: number,
) {
  return { ...ownRecord(person, now), ...token };
}

/** A new one-time code for `personID`; only its hash is stored. */
export async function createConfirmation(
  db: Kysely<DB>,
  personID: number,
  purpose: 'password',
  now: number,
): Promise<string> {
  const code = newToken();
  await db
    .insertInto('confirmation')
    .values({
      codeHash: hashToken(code),
      personID,
      purpose,
      dateCreated: now,
      expiresAt: now + CONFIRMATION_TTL_SECONDS,
    })
    .execute();
  return code;
}

/**
 * Spends a code: the person it proves, once. One conditional update, so two concurrent uses of one
 * code cannot both succeed; a used, expired or unknown code answers undefined.
 */
export async function spendConfirmation(
  db: Kysely<DB>,
  code: string,
  purpose: 'password',
  now: number,
): Promise<number | undefined> {
  const row = await db
    .updateTable('confirmation')
    .set({ usedAt: now })
    .where('codeHash', '=', hashToken(code))
    .where('purpose', '=', purpose)
    .where('usedAt', '=', 0)
    .where('expiresAt', '>', now)
    .returning('personID')
    .executeTakeFirst();
  return row?.personID;
}

import { randomUUID } from 'node:crypto';
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
 * What a pending request's row holds in place of a code's hash until its job makes the code: never the
 * SHA-256 (hex) of anything, so no code spends it.
 */
const PENDING = 'pending:';

/**
 * A request for a code, to be made and mailed by a job (person.recover): a row that no code spends yet,
 * named by a random request id (`value`). Answers the id, which is no secret: it proves nothing, it
 * only names the row the job gives its code to.
 */
export async function requestConfirmation(
  db: Kysely<DB>,
  personID: number,
  purpose: 'password',
  now: number,
): Promise<string> {
  const request = randomUUID();
  await db
    .insertInto('confirmation')
    .values({
      codeHash: PENDING + request,
      personID,
      purpose,
      value: request,
      dateCreated: now,
      expiresAt: now + CONFIRMATION_TTL_SECONDS,
    })
    .execute();
  return request;
}

/**
 * The code of a request, made now (valid CONFIRMATION_TTL_SECONDS from now): a new one each call, whose
 * hash replaces the previous code's, so a request has one valid code at most — a job run again after a
 * crash that had already mailed a code makes that code void. Undefined once the request is spent (or
 * its person is gone): nothing to send.
 *
 * Only what person.recover already stored is asked for (the person and the request's id): the code is
 * made here, in the job, so it never sits in the job queue.
 */
export async function issueConfirmation(
  db: Kysely<DB>,
  personID: number,
  request: string,
  now: number,
): Promise<{ code: string; person: Person } | undefined> {
  const code = newToken();
  const row = await db
    .updateTable('confirmation')
    .set({ codeHash: hashToken(code), expiresAt: now + CONFIRMATION_TTL_SECONDS })
    // By person first: its index finds the few rows to look at.
    .where('personID', '=', personID)
    .where('value', '=', request)
    .where('usedAt', '=', 0)
    .returning('personID')
    .executeTakeFirst();
  if (!row) return undefined;
  const person = await db.selectFrom('person').selectAll().where('personID', '=', personID).executeTakeFirst();
  return person && { code, person };
}

/**
 * Spends a code: the person it proves, once. One conditional update, so two concurrent uses of one
 * code cannot both succeed; a used, expired or unknown code answers undefined.
 */
export async function spendConfirmation(
  db: Kysely<DB>,
  code: string,
  purpose: 'password' | 'eventLink',
  now: number,
  /** Only a code made for this event (an event magic link, magic.ts). */
  eventID?: number,
): Promise<number | undefined> {
  const row = await db
    .updateTable('confirmation')
    .set({ usedAt: now })
    .where('codeHash', '=', hashToken(code))
    .where('purpose', '=', purpose)
    .$if(eventID !== undefined, (q) => q.where('eventID', '=', eventID!))
    .where('usedAt', '=', 0)
    .where('expiresAt', '>', now)
    .returning('personID')
    .executeTakeFirst();
  return row?.personID;
}

import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import { hashToken, newToken } from '../../auth/secrets.ts';
import { eventPersonOf } from '../rows.ts';
import { spendConfirmation } from './identity.ts';

// Event magic links (issue 18, spec §5.5: always event-scoped). A link is a one-time code in the
// `confirmation` table, purpose `eventLink`, bound to one event and one person: only its SHA-256 is
// stored, it expires MAGIC_LINK_TTL seconds after it is made, and spending it is one conditional update
// (two concurrent exchanges: one wins). Codes are made by the jobs that mail them (person.requestLink's
// job, the registration confirmation), never in a request, so a code never sits in the job queue.

export const LINK_PURPOSE = 'eventLink' as const;

/** The job of person.requestLink: mails a link when `personID` names an attendee (0: nobody, nothing sent). */
export const LINK_MAIL_JOB = 'person.link.mail';

export interface LinkMailPayload {
  readonly eventID: number;
  /** 0 when the address is no attendee of the event: the job is added all the same (no enumeration). */
  readonly personID: number;
  /** Names the code's row: a job run again replaces its code instead of making a second one. */
  readonly request: string;
  /** en, pt, es or '' (the attendee's or the event's language). */
  readonly lang: string;
  /** The path of the event's site the link leads back to after signing in ('' or absent: My registration). */
  readonly next?: string;
}

/** The attendee of `eventID` reached at `email` (lower-case), by the event's profile or the identity. */
export async function attendeeByEmail(db: Kysely<DB>, eventID: number, email: string): Promise<number | undefined> {
  const row = await db
    .selectFrom('eventPerson')
    .innerJoin('person', 'person.personID', 'eventPerson.personID')
    .select('eventPerson.personID')
    .where('eventPerson.eventID', '=', eventID)
    .where((w) =>
      w.or([w('eventPerson.email', '=', email), w('person.email', '=', email), w('person.username', '=', email)]),
    )
    .orderBy('eventPerson.personID')
    .executeTakeFirst();
  return row?.personID;
}

/**
 * Inside person.requestLink's transaction: the job that mails the link, added whether or not the address
 * is an attendee (the same work either way: the answer's timing tells nothing).
 */
export async function queueLinkMail(
  trx: Kysely<DB>,
  jobs: Pick<JobQueue, 'add'>,
  eventID: number,
  personID: number | undefined,
  lang: string,
  next = '',
): Promise<void> {
  const payload: LinkMailPayload = { eventID, personID: personID ?? 0, request: randomUUID(), lang, next };
  await jobs.add(trx, LINK_MAIL_JOB, { ...payload }, { key: payload.request });
}

/**
 * A new link code for the attendee, valid `ttlSeconds` from `now`, stored hashed. With `request`, the
 * code replaces the one an earlier run of the same request made (a job run again), and nothing is made
 * once that request's code was spent. Undefined when there is nothing to send (spent, or no attendee).
 */
export async function issueLink(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  now: number,
  ttlSeconds: number,
  request: string = randomUUID(),
): Promise<string | undefined> {
  if (!(await eventPersonOf(db, eventID, personID).select('personID').executeTakeFirst())) return undefined;
  const code = newToken();
  const values = { codeHash: hashToken(code), expiresAt: now + ttlSeconds };
  const earlier = await db
    .selectFrom('confirmation')
    .select('usedAt')
    .where('personID', '=', personID)
    .where('value', '=', request)
    .where('purpose', '=', LINK_PURPOSE)
    .executeTakeFirst();
  if (earlier && earlier.usedAt > 0) return undefined;
  if (earlier)
    await db
      .updateTable('confirmation')
      .set(values)
      .where('personID', '=', personID)
      .where('value', '=', request)
      .where('usedAt', '=', 0)
      .execute();
  else
    await db
      .insertInto('confirmation')
      .values({ ...values, personID, eventID, purpose: LINK_PURPOSE, value: request, dateCreated: now })
      .execute();
  return code;
}

/**
 * Spends a link code for `eventID`: the person it proves, once. Unknown, used, expired, or of another
 * event: undefined (the same for each, so the answer tells none of them apart).
 */
export async function spendLink(
  db: Kysely<DB>,
  code: string,
  eventID: number,
  now: number,
): Promise<number | undefined> {
  // The one conditional update of every one-time code (identity.ts), bound to the event.
  return spendConfirmation(db, code, LINK_PURPOSE, now, eventID);
}

/** Ends one token now (person.signOut): answers the person it was of, if it was still stored. */
export async function revokeToken(db: Kysely<DB>, tokenHash: string): Promise<number | undefined> {
  const row = await db.deleteFrom('token').where('tokenHash', '=', tokenHash).returning('personID').executeTakeFirst();
  return row?.personID;
}

import { randomBytes } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { DB, EventPersonTable } from '../../db/schema.ts';
import { hashToken, newToken } from '../../auth/secrets.ts';
import type { Work } from '../work.ts';
import { enrollInGeneral } from '../enrollment/general.ts';
import { compiledOnce } from './compiled.ts';

export type Enrollment = Omit<Insertable<EventPersonTable>, 'qrCode' | 'enrollmentDate' | 'updatedDate'>;

/**
 * Adds a person to an event (an eventPerson row): the one place attendees are created, whatever the
 * route (event.person.bind, form.respondRegistration, activity.person.bind by name/e-mail). The qrCode
 * (spec §2.3) is random, fixed at enrollment and never editable, so a third party cannot forge one.
 * An approved attendee is enrolled in the event's general activities (spec §2.4, enrollInGeneral).
 */
export async function enrollInEvent(db: Kysely<DB>, row: Enrollment, now: number): Promise<void> {
  await insertEventPerson(db, { ...row, qrCode: randomBytes(18).toString('base64url'), enrollmentDate: now, updatedDate: now }); // prettier-ignore
  if ((row.approved ?? 1) === 1 && (await hasGeneral(db, [row.eventID])).rows.length > 0)
    await enrollInGeneral(db, row.eventID, row.personID, now);
}

/**
 * Whether the event has a general activity: most have none, and this compiled-once read spares them
 * enrollInGeneral's own (built per call); when it has some, enrollInGeneral reads them again.
 */
const hasGeneral = compiledOnce(1, (db, eventID: number) =>
  db.selectFrom('activity').select('activityID').where('eventID', '=', eventID).where('general', '=', 1).limit(1),
);

/**
 * The insert of an eventPerson row, compiled once per set of columns given (callers pass a few fixed
 * shapes; an undefined value leaves its column out, as Kysely's values() does).
 */
const eventPersonInserts = new Map<string, ReturnType<typeof compiledOnce<unknown[], unknown>>>();
function insertEventPerson(db: Kysely<DB>, values: Insertable<EventPersonTable>) {
  const given = values as Record<string, unknown>;
  const columns = Object.keys(given).filter((k) => given[k] !== undefined);
  const key = columns.join(',');
  let insert = eventPersonInserts.get(key);
  if (!insert) {
    const row = (args: unknown[]) => Object.fromEntries(columns.map((c, i) => [c, args[i]]));
    insert = compiledOnce(columns.length, (d, ...args: unknown[]) =>
      d.insertInto('eventPerson').values(row(args) as Insertable<EventPersonTable>),
    );
    eventPersonInserts.set(key, insert);
  }
  return insert(db, columns.map((c) => given[c])); // prettier-ignore
}

/** A full name as the three name fields of a profile: spaces folded, the first word the first name. */
export function nameParts(full: string): { name: string; firstName: string; lastName: string } {
  const name = full.trim().replace(/\s+/g, ' ');
  const [firstName = '', ...rest] = name.split(' ');
  return { name, firstName, lastName: rest.join(' ') };
}

/** Issues an access token (spec §2.1) for a person; nothing is stored for sandbox calls. */
export async function issueToken(
  ctx: Omit<Work, 'caller'>,
  personID: number,
  scope: 'system' | 'event',
  targetID: number,
): Promise<string> {
  const tokenID = newToken();
  if (!ctx.sandbox)
    await ctx.db
      .insertInto('token')
      .values({
        tokenHash: hashToken(tokenID),
        personID,
        scope,
        targetID,
        dateCreated: ctx.now,
        expiresAt: ctx.now + ctx.config.TOKEN_TTL_DAYS * 86400,
      })
      .execute();
  return tokenID;
}

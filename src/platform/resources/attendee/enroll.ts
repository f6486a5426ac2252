import { randomBytes } from 'node:crypto';
import type { Insertable, Kysely } from 'kysely';
import type { DB, EventPersonTable } from '../../db/schema.ts';
import { hashToken, newToken } from '../../auth/secrets.ts';
import type { Work } from '../work.ts';
import { enrollInGeneral } from '../enrollment/general.ts';

export type Enrollment = Omit<Insertable<EventPersonTable>, 'qrCode' | 'enrollmentDate' | 'updatedDate'>;

/**
 * Adds a person to an event (an eventPerson row): the one place attendees are created, whatever the
 * route (event.person.bind, form.respondRegistration, activity.person.bind by name/e-mail). The qrCode
 * (spec §2.3) is random, fixed at enrollment and never editable, so a third party cannot forge one.
 * An approved attendee is enrolled in the event's general activities (spec §2.4, enrollInGeneral).
 */
export async function enrollInEvent(db: Kysely<DB>, row: Enrollment, now: number): Promise<void> {
  await db
    .insertInto('eventPerson')
    .values({ ...row, qrCode: randomBytes(18).toString('base64url'), enrollmentDate: now, updatedDate: now })
    .execute();
  if ((row.approved ?? 1) === 1) await enrollInGeneral(db, row.eventID, row.personID, now);
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

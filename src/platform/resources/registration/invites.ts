import { z } from 'zod';
import { sql, type Kysely, type SqlBool } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { email } from '../../schemas.ts';
import type { Page } from '../../db/page.ts';
import type { inviteWire } from '../../../shared/wire/invite.ts';
import type { RecordOf } from '../records.ts';

export const MAX_INVITES_PER_CALL = 1000;

/** One address, or several separated by commas, semicolons, spaces or new lines; lower-cased, repeats dropped. */
export const emailList = z
  .string()
  .max(400_000, 'must be at most 400000 characters')
  .transform((raw, ctx) => {
    const list = [
      ...new Set(
        raw
          .split(/[\s,;]+/)
          .filter((v) => v !== '')
          .map((v) => v.toLowerCase()),
      ),
    ];
    const bad = list.find((v) => !email.safeParse(v).success);
    const message =
      list.length === 0
        ? 'cannot be empty'
        : list.length > MAX_INVITES_PER_CALL
          ? `must list at most ${MAX_INVITES_PER_CALL} addresses`
          : bad !== undefined
            ? `has "${bad.slice(0, 60)}", which is not an e-mail address`
            : undefined;
    if (message) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    return list;
  });

export type InviteSelection = 'all' | 'registered' | 'not-registered';

/**
 * Invitees of an event, each with the attendee registered with that e-mail (personID, 0 when none).
 * The e-mail is the invite (spec §4.4 "send the e-mail").
 */
export function inviteQuery(db: Kysely<DB>, eventID: number) {
  return db
    .selectFrom('eventInvite')
    .select((s) => [
      'eventInvite.eventID',
      'eventInvite.email',
      'eventInvite.dateCreated',
      s
        .selectFrom('eventPerson')
        .select('eventPerson.personID')
        .whereRef('eventPerson.eventID', '=', 'eventInvite.eventID')
        .whereRef('eventPerson.email', '=', 'eventInvite.email')
        .orderBy('eventPerson.personID')
        .limit(1)
        .as('personID'),
    ])
    .where('eventInvite.eventID', '=', eventID);
}

type InviteRow = Awaited<ReturnType<ReturnType<typeof inviteQuery>['execute']>>[number];

/** An invite's record: exactly the keys of its wire row, or it does not compile. */
export const inviteRecord = (r: InviteRow): RecordOf<typeof inviteWire> => ({
  eventID: r.eventID,
  email: r.email,
  dateCreated: r.dateCreated,
  registered: r.personID ? 1 : 0,
  personID: r.personID ?? 0,
});

export async function findInvites(
  db: Kysely<DB>,
  eventID: number,
  o: { selection: InviteSelection; query?: string; page: Page },
) {
  let q = inviteQuery(db, eventID);
  if (o.query) {
    const like = `%${o.query.toLowerCase().replace(/[\\%_]/g, '\\$&')}%`;
    q = q.where(sql<SqlBool>`${sql.ref('eventInvite.email')} like ${like} escape '\\'`);
  }
  if (o.selection !== 'all') {
    q = q.where((w) => {
      const registered = w.exists(
        w
          .selectFrom('eventPerson')
          .select('eventPerson.personID')
          .whereRef('eventPerson.eventID', '=', 'eventInvite.eventID')
          .whereRef('eventPerson.email', '=', 'eventInvite.email'),
      );
      return o.selection === 'registered' ? registered : w.not(registered);
    });
  }
  const rows = await q.orderBy('eventInvite.email').limit(o.page.limit).offset(o.page.offset).execute();
  let total = rows.length;
  if (o.page.paginated) {
    const counted = await q
      .clearSelect()
      .select((c) => c.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    total = Number(counted.n);
  }
  return { rows: rows.map(inviteRecord), total };
}

/** Puts addresses on the event's invitee list (those already on it stay as they were) and answers them. */
export async function addInvites(db: Kysely<DB>, eventID: number, emails: readonly string[], now: number) {
  await db
    .insertInto('eventInvite')
    .values(emails.map((email) => ({ eventID, email, dateCreated: now })))
    .onConflict((oc) => oc.columns(['eventID', 'email']).doNothing())
    .execute();
  return inviteQuery(db, eventID)
    .where('eventInvite.email', 'in', [...emails])
    .orderBy('eventInvite.email')
    .execute();
}

/** Takes an address off the invitee list; answers its row as it was (undefined: it was not on it). */
export async function removeInvite(db: Kysely<DB>, eventID: number, email: string) {
  const row = await inviteQuery(db, eventID).where('eventInvite.email', '=', email).executeTakeFirst();
  if (row) await db.deleteFrom('eventInvite').where('eventID', '=', eventID).where('email', '=', email).execute();
  return row;
}

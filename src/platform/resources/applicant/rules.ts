import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { LEVEL } from '../../auth/levels.ts';
import { badRequest, conflict, notFound } from '../../errors.ts';
import { email as emailSchema } from '../../schemas.ts';
import { lockRow } from '../rows.ts';
import { enrollInEvent, nameParts } from '../attendee/enroll.ts';
import { isAttendee } from '../enrollment/rules.ts';
import { MAX_BULK, inRow } from '../enrollment/bulk.ts';
import { createPerson, findPersonByEmail, findPersonByUsername } from '../person/repository.ts';
import { placesTaken } from '../guest/repository.ts';
import { CLOSED_MESSAGES } from '../form/settings.ts';
import { applicationOf, insertApplication, markApproved, type ApplicationRow } from './repository.ts';

// Applications (docs/api/applicants.md): an event with approvalRequired=1 takes applications through
// its public form; event.applicant.approve turns one into an attendee under the very rules of a
// registration (capacity with the event's guests, the waiting list, general activities, the
// confirmation e-mail), and event.applicant.dismiss refuses it.

/** The message of an approval that finds the event full with no waiting list. */
export const FULL_APPROVAL = `${CLOSED_MESSAGES.full}: no place left to approve this applicant`;

/**
 * Approves an application, in the call's transaction: the person becomes an attendee (approved while
 * the event has places, else on its waiting list when it has one, else 409), with the answers, tags,
 * password and profile the application holds, and is enrolled in the event's general activities.
 * Approving an approved application changes nothing. (The confirmation e-mail follows the call's
 * change: resources/email/confirmation.ts.)
 */
export async function approveApplication(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  now: number,
): Promise<ApplicationRow> {
  // Capacity is check-then-insert: serialized on the event's row, like the registration form.
  await lockRow(db, 'event', eventID);
  const app = await applicationOf(db, eventID, personID);
  if (!app) throw notFound('applicant');
  if (app.approved === 1) return app;
  // Made an attendee some other way meanwhile (event.person.bind): only the application is settled.
  if (!(await isAttendee(db, eventID, personID))) {
    const event = await db
      .selectFrom('event')
      .select(['capacity', 'waitingList'])
      .where('eventID', '=', eventID)
      .executeTakeFirstOrThrow();
    let approved = 1;
    if (event.capacity > 0 && (await placesTaken(db, eventID, event.capacity)) >= event.capacity) {
      if (event.waitingList !== 1) throw conflict(FULL_APPROVAL);
      approved = 0;
    }
    await enrollInEvent(
      db,
      {
        eventID,
        personID,
        level: LEVEL.USER,
        approved,
        rsvp: app.rsvp,
        private: app.private,
        passwordHash: app.passwordHash,
        origin: app.origin,
        language: app.language,
        username: app.username,
        email: app.email,
        firstName: app.firstName,
        lastName: app.lastName,
        name: app.name,
        image: app.image,
        telephone: app.telephone,
        role: app.role,
        company: app.company,
      },
      now,
    );
    await restoreAnswers(db, eventID, personID, app);
  }
  await markApproved(db, eventID, personID, now);
  return { ...app, approved: 1, approvedDate: now };
}

/** The form answers and attendee tags the application holds, for the fields and tags the event still has. */
async function restoreAnswers(db: Kysely<DB>, eventID: number, personID: number, app: ApplicationRow) {
  // Left from an earlier registration in this event (removed since): not kept, as the form does.
  for (const table of ['feedbackAnswer', 'eventPersonTag'] as const)
    await db.deleteFrom(table).where('eventID', '=', eventID).where('personID', '=', personID).execute();
  const answers = JSON.parse(app.answers) as [number, string][];
  if (answers.length > 0) {
    const fields = await db
      .selectFrom('feedback')
      .select('feedbackID')
      .where('eventID', '=', eventID)
      .where(
        'feedbackID',
        'in',
        answers.map(([f]) => f),
      )
      .execute();
    const kept = new Set(fields.map((f) => f.feedbackID));
    const rows = answers
      .filter(([f]) => kept.has(f))
      .map(([feedbackID, value]) => ({ feedbackID, personID, eventID, value }));
    if (rows.length > 0) await db.insertInto('feedbackAnswer').values(rows).execute();
  }
  const tagIDs = JSON.parse(app.tagIDs) as number[];
  if (tagIDs.length > 0) {
    const tags = await db
      .selectFrom('tag')
      .select('tagID')
      .where('eventID', '=', eventID)
      .where('kind', '=', 'attendee')
      .where('tagID', 'in', tagIDs)
      .execute();
    if (tags.length > 0)
      await db
        .insertInto('eventPersonTag')
        .values(tags.map((t) => ({ eventID, personID, tagID: t.tagID })))
        .execute();
  }
}

/** An application can be refused (dismissed) only while it waits: an approved one is an attendee's. */
export function requirePending(app: ApplicationRow | undefined): ApplicationRow {
  if (!app) throw notFound('applicant');
  if (app.approved === 1) throw conflict('the applicant is approved already: event.person.dismiss removes an attendee');
  return app;
}

/**
 * The bulk form of event.applicant.bind (B path): each CSV row an `email` with `name` (or `firstName`
 * and `lastName`), optional `username` (default: the e-mail), `role`, `company`, `telephone`. The person
 * is found by e-mail (or username) or created; a row whose person has applied already keeps that
 * application; an attendee of the event is a 409 naming the row. All or nothing.
 */
export async function importApplications(
  db: Kysely<DB>,
  eventID: number,
  rows: readonly Record<string, string>[],
  now: number,
): Promise<ApplicationRow[]> {
  if (rows.length === 0) throw badRequest('path has no rows');
  if (rows.length > MAX_BULK) throw badRequest(`path can have at most ${MAX_BULK} rows`);
  const out: ApplicationRow[] = [];
  // Rows are counted as in the file: the header is row 1.
  for (const [i, row] of rows.entries())
    out.push(await inRow('path row', i + 1, () => importRow(db, eventID, row, now)));
  return out;
}

const cell = (row: Record<string, string>, key: string, max: number) => (row[key] ?? '').trim().slice(0, max);

async function importRow(db: Kysely<DB>, eventID: number, row: Record<string, string>, now: number) {
  const mail = emailSchema.safeParse(cell(row, 'email', 320).toLowerCase());
  if (!mail.success) throw badRequest('email must be an e-mail address');
  const email = mail.data;
  const username = cell(row, 'username', 320).toLowerCase() || email;
  if (/\s/.test(username)) throw badRequest('username cannot contain spaces');
  const full = cell(row, 'name', 200) || `${cell(row, 'firstName', 100)} ${cell(row, 'lastName', 100)}`.trim();
  const names = nameParts(full || email.split('@')[0]);
  const byUsername = await findPersonByUsername(db, username);
  if (byUsername && username !== email && byUsername.email !== email) throw conflict('username is already taken');
  const found = byUsername ?? (await findPersonByEmail(db, email));
  const personID = found?.personID ?? (await createPerson(db, { username, email, ...names }, now));
  if (await isAttendee(db, eventID, personID)) throw conflict('the person is already an attendee of this event');
  const existing = await applicationOf(db, eventID, personID);
  if (existing) return existing;
  return insertApplication(db, {
    eventID,
    personID,
    username,
    email,
    ...names,
    role: cell(row, 'role', 200),
    company: cell(row, 'company', 200),
    telephone: cell(row, 'telephone', 40),
    origin: 'import',
    dateCreated: now,
  });
}

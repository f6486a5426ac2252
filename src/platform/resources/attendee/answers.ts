import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { fieldQuery, parseStoredOptions, type FieldDef } from '../form/fields.ts';
import type { EnrollmentSettings } from '../form/settings.ts';

// An attendee's answers to the custom fields of the event's form (feedbackAnswer), changed after the
// registration with event.person.operate key feedbackContent (issue 18: "My registration" on the site).

/** The form's fields of the event, as readFeedbackContent checks answers against them. */
export async function formFields(db: Kysely<DB>, eventID: number): Promise<FieldDef[]> {
  const rows = await fieldQuery(db, eventID).execute();
  return rows.map((r) => ({
    feedbackID: r.feedbackID,
    name: r.name,
    type: r.type,
    options: parseStoredOptions(r.options),
    apiKey: r.apiKey,
    required: r.required,
  }));
}

/** The settings that say whether the event's form is open now (form/settings.ts windowReason). */
export async function enrollmentSettings(db: Kysely<DB>, eventID: number): Promise<EnrollmentSettings | undefined> {
  return db
    .selectFrom('event')
    .select(['enrollmentOpen', 'enrollmentBegin', 'enrollmentEnd', 'capacity', 'waitingList', 'isTemplate'])
    .where('eventID', '=', eventID)
    .executeTakeFirst();
}

/** Replaces the attendee's answers with `answers` (by feedbackID): a field left out has no answer. */
export async function replaceAnswers(
  db: Kysely<DB>,
  eventID: number,
  personID: number,
  answers: ReadonlyMap<number, string>,
): Promise<void> {
  await db.deleteFrom('feedbackAnswer').where('eventID', '=', eventID).where('personID', '=', personID).execute();
  if (answers.size === 0) return;
  const rows = [...answers].map(([feedbackID, value]) => ({ feedbackID, personID, eventID, value }));
  await db.insertInto('feedbackAnswer').values(rows).execute();
}

import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { email, id, text, url } from '../../schemas.ts';
import { conflict, notFound } from '../../errors.ts';
import { editKey, type EditKey } from '../../edit.ts';
import { lockRow } from '../../db/lock.ts';
import { nonBlank, organizerHtml, position, without } from '../hotsite/content.ts';

/** The speaker record (spec §2.5 Speaker, plus website, position and personID). */
const COLUMNS = [
  'speakerID', 'eventID', 'personID', 'name', 'headline', 'description', 'category', 'image', 'email', 'website',
  'socialA', 'socialB', 'socialC', 'position',
] as const; // prettier-ignore

/** Personal data only the event's admins see. */
export const SPEAKER_PRIVATE = ['email'] as const;

/** Field schemas, shared by speaker.create (B params) and speaker.edit (keys). */
export const SPEAKER_FIELD = {
  name: nonBlank(200),
  headline: text(300),
  description: organizerHtml,
  category: text(100),
  image: url,
  email,
  website: url,
  socialA: url,
  socialB: url,
  socialC: url,
  position,
  personID: id,
};

/** speaker.edit keys: every field; an empty value clears all but name. */
export const SPEAKER_KEYS: Record<string, EditKey> = {
  name: editKey(SPEAKER_FIELD.name),
  headline: editKey(SPEAKER_FIELD.headline, { clear: '' }),
  description: editKey(SPEAKER_FIELD.description, { clear: '' }),
  category: editKey(SPEAKER_FIELD.category, { clear: '' }),
  image: editKey(SPEAKER_FIELD.image, { clear: '' }),
  email: editKey(SPEAKER_FIELD.email, { clear: '' }),
  website: editKey(SPEAKER_FIELD.website, { clear: '' }),
  socialA: editKey(SPEAKER_FIELD.socialA, { clear: '' }),
  socialB: editKey(SPEAKER_FIELD.socialB, { clear: '' }),
  socialC: editKey(SPEAKER_FIELD.socialC, { clear: '' }),
  position: editKey(SPEAKER_FIELD.position, { clear: 0 }),
  personID: editKey(SPEAKER_FIELD.personID, { clear: null }),
};

export function speakerQuery(db: Kysely<DB>) {
  return db.selectFrom('speaker').select(COLUMNS);
}

export type SpeakerRow = NonNullable<Awaited<ReturnType<ReturnType<typeof speakerQuery>['executeTakeFirst']>>>;

export function speakerByID(db: Kysely<DB>, speakerID: number) {
  return speakerQuery(db).where('speakerID', '=', speakerID).executeTakeFirst();
}

/** The record as a viewer sees it: admins everything, everyone else without the personal fields. */
export function speakerRecord(row: SpeakerRow, admin: boolean): Record<string, unknown> {
  return admin ? { ...row } : without(row, SPEAKER_PRIVATE);
}

/**
 * A speaker may be linked to one attendee of its event (personID): the person must be registered in
 * the event (else 404 person) and not already linked to another speaker of it (else 409). Takes the
 * event's row lock, so two concurrent links of one person cannot both pass.
 */
export async function checkSpeakerPerson(
  trx: Kysely<DB>,
  eventID: number,
  personID: number,
  speakerID?: number,
): Promise<void> {
  await lockRow(trx, 'event', eventID);
  const member = await trx
    .selectFrom('eventPerson')
    .select('personID')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .executeTakeFirst();
  if (!member) throw notFound('person');
  const linked = await trx
    .selectFrom('speaker')
    .select('speakerID')
    .where('eventID', '=', eventID)
    .where('personID', '=', personID)
    .$if(speakerID !== undefined, (q) => q.where('speakerID', '!=', speakerID!))
    .executeTakeFirst();
  if (linked) throw conflict('the person is already linked to another speaker of this event');
}

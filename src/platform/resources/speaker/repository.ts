import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { email, id, nonBlank, text, url } from '../../schemas.ts';
import { conflict, notFound } from '../../errors.ts';
import { lockRow } from '../../db/lock.ts';
import { organizerHtml, position } from '../hotsite/content.ts';
import { defineResource, field } from '../crud/resource.ts';
import { speakerWire } from '../../../shared/wire/speaker.ts';
import { eventPersonOf } from '../rows.ts';

/**
 * The speaker (spec §2.5 Speaker, plus website, position and personID), declared once: its columns,
 * speaker.create's parameters, speaker.edit's keys and both shapes of the record derive from here.
 */
export const SPEAKER = defineResource({
  table: 'speaker',
  id: 'speakerID',
  what: 'speaker',
  wire: speakerWire,
  fields: {
    personID: field(id, 'an attendee of the event this speaker is', { clear: null }),
    name: field(nonBlank(200), 'full name', { required: true }),
    headline: field(text(300), 'one line: role, company', { clear: '' }),
    description: field(organizerHtml, 'biography (HTML, sanitized)', { clear: '' }),
    category: field(text(100), 'free grouping, e.g. Keynote', { clear: '' }),
    image: field(url, 'photo URL (http or https)', { clear: '' }),
    email: field(email, 'e-mail (shown to event admins only)', { clear: '', private: true }),
    website: field(url, 'website URL', { clear: '' }),
    socialA: field(url, 'profile URL on social network A', { clear: '' }),
    socialB: field(url, 'profile URL on social network B', { clear: '' }),
    socialC: field(url, 'profile URL on social network C', { clear: '' }),
    position: field(position, 'display order, 0 first (default 0)', { clear: 0 }),
  },
  order: ['position', { lower: 'name' }, 'speakerID'],
});

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
  const member = await eventPersonOf(trx, eventID, personID).select('personID').executeTakeFirst();
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

/**
 * event.person.bind `createSpeaker`: the attendee becomes a speaker of the event (with the name and
 * e-mail the event has of them), unless a speaker is already linked to them.
 */
export async function ensureSpeaker(
  db: Kysely<DB>,
  eventID: number,
  person: { personID: number; name: string; email: string },
) {
  const linked = await db
    .selectFrom('speaker')
    .select('speakerID')
    .where('eventID', '=', eventID)
    .where('personID', '=', person.personID)
    .executeTakeFirst();
  if (!linked) await SPEAKER.insert(db, eventID, person);
}

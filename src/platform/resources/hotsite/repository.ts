import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { text } from '../../schemas.ts';
import { conflict } from '../../errors.ts';
import { lockRow } from '../../db/lock.ts';
import { HOTSITE_SECTIONS } from '../../../shared/hotsite.ts';
import { sectionWire } from '../../../shared/wire/section.ts';
import { defineResource, field } from '../crud/resource.ts';
import { organizerHtml, position } from './content.ts';

/** At most this many sections per event, so one page of event.hotsite.find (limit=100) holds them all. */
export const HOTSITE_MAX_SECTIONS = 100;

export const sectionKind = z.enum(HOTSITE_SECTIONS, `must be one of ${HOTSITE_SECTIONS.join(', ')}`);

/**
 * A section of an event's public website, declared once. `section` is its kind (src/shared/hotsite.ts:
 * what the site renders there); several sections of one kind may exist. `text` is organizer HTML,
 * sanitized on write. Listed by position, then sectionID.
 */
export const SECTION = defineResource({
  table: 'hotsite',
  id: 'sectionID',
  what: 'section',
  wire: sectionWire,
  fields: {
    section: field(sectionKind, `section kind: ${HOTSITE_SECTIONS.join(', ')}`, { required: true }),
    position: field(position, 'display order, 0 first', { required: true, clear: 0 }),
    name: field(text(200), 'heading shown above the section', { clear: '' }),
    text: field(organizerHtml, 'HTML (sanitized)', { clear: '' }),
  },
  order: ['position', 'sectionID'],
});

/** 409 when the event already has HOTSITE_MAX_SECTIONS sections (under the event's row lock). */
export async function checkSectionRoom(trx: Kysely<DB>, eventID: number): Promise<void> {
  await lockRow(trx, 'event', eventID);
  const { n } = await trx
    .selectFrom('hotsite')
    .select((e) => e.fn.countAll<number>().as('n'))
    .where('eventID', '=', eventID)
    .executeTakeFirstOrThrow();
  if (Number(n) >= HOTSITE_MAX_SECTIONS)
    throw conflict(`an event has at most ${HOTSITE_MAX_SECTIONS} hotsite sections`);
}

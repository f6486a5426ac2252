import { readPage, type Page } from '../../db/page.ts';
import { z } from 'zod';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.ts';
import { text } from '../../schemas.ts';
import { conflict } from '../../errors.ts';
import { editKey, type EditKey } from '../../edit.ts';
import { lockRow } from '../../db/lock.ts';
import { HOTSITE_SECTIONS } from '../../../shared/hotsite.ts';
import { organizerHtml, position } from './content.ts';

/** At most this many sections per event, so one page of event.hotsite.find (limit=100) holds them all. */
export const HOTSITE_MAX_SECTIONS = 100;

export const sectionKind = z.enum(HOTSITE_SECTIONS, `must be one of ${HOTSITE_SECTIONS.join(', ')}`);

/** Field schemas, shared by event.hotsite.create and event.hotsite.edit (keys). */
export const SECTION_FIELD = { section: sectionKind, position, name: text(200), text: organizerHtml };

export const SECTION_KEYS: Record<string, EditKey> = {
  section: editKey(SECTION_FIELD.section),
  position: editKey(SECTION_FIELD.position, { clear: 0 }),
  name: editKey(SECTION_FIELD.name, { clear: '' }),
  text: editKey(SECTION_FIELD.text, { clear: '' }),
};

const COLUMNS = ['sectionID', 'eventID', 'section', 'position', 'name', 'text'] as const;

export function sectionQuery(db: Kysely<DB>) {
  return db.selectFrom('hotsite').select(COLUMNS);
}

export function sectionByID(db: Kysely<DB>, sectionID: number) {
  return sectionQuery(db).where('sectionID', '=', sectionID).executeTakeFirst();
}

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

/** The event's sections (of one kind, when given), by position. */
export const sectionsPage = (db: Kysely<DB>, eventID: number, section: string | undefined, page: Page) =>
  readPage(
    db,
    sectionQuery(db)
      .where('eventID', '=', eventID)
      .$if(section !== undefined, (w) => w.where('section', '=', section!))
      .orderBy('position')
      .orderBy('sectionID'),
    page,
  );

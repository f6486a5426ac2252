import { b, bOpt, defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { id } from '../../../../schemas.ts';
import { checkSectionRoom, sectionByID, SECTION_FIELD as F } from '../../../hotsite/repository.ts';
import { HOTSITE_SECTIONS } from '../../../../../shared/hotsite.ts';
import { insertRow } from '../../../rows.ts';

/**
 * Spec §4.9: adds a section to the event's public website. `section` is its kind (src/shared/hotsite.ts:
 * what the site renders there); several sections of one kind may exist. `text` is organizer HTML,
 * sanitized on write. Deviation: the spec's row has no tokenID, but sections are the event's public
 * website, so an event admin's token is required (docs/api/site.md).
 */
export default defineOperation({
  name: 'event.hotsite.create',
  summary: "Adds a section to the event's public website (event admins).",
  methods: ['POST'],
  params: {
    eventID: q(id, 'the event'),
    section: q(F.section, `section kind: ${HOTSITE_SECTIONS.join(', ')}`),
    position: b(F.position, 'display order, 0 first'),
    name: bOpt(F.name, 'heading shown above the section'),
    text: bOpt(F.text, 'HTML (sanitized)'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN },
  writes: true,
  async handler(ctx, p) {
    await checkSectionRoom(ctx.db, p.eventID);
    const sectionID = await insertRow(ctx.db, 'hotsite', 'sectionID', {
      eventID: p.eventID,
      section: p.section,
      position: p.position,
      name: p.name ?? '',
      text: p.text ?? '',
    });
    return [(await sectionByID(ctx.db, sectionID))!];
  },
});

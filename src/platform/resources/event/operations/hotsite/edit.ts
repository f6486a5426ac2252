import { z } from 'zod';
import { bOpt, defineOperation, q, LEVEL } from '../../../../kernel/table.ts';
import { id, text } from '../../../../schemas.ts';
import { keyList, parseEdit } from '../../../../edit.ts';
import { sectionByID, SECTION_KEYS } from '../../../hotsite/repository.ts';
import { updateRow } from '../../../rows.ts';

/** Podium extension: edits one field of a hotsite section (spec §1.3 edit style). */
export default defineOperation({
  name: 'event.hotsite.edit',
  summary: `Edits one hotsite section field. Keys: ${keyList(SECTION_KEYS)}.`,
  methods: ['POST'],
  params: {
    sectionID: q(id, 'the section'),
    key: q(text(60), 'field to edit'),
    value: bOpt(z.string().max(50000, 'must be at most 50000 characters'), 'new value; empty clears name and text'),
  },
  auth: { kind: 'event', levels: LEVEL.ADMIN, via: ['sectionID'] },
  extension: true,
  writes: true,
  async handler(ctx, p) {
    const { column, value } = parseEdit(SECTION_KEYS, p.key, p.value);
    await updateRow(ctx.db, 'hotsite', 'sectionID', p.sectionID, { [column]: value });
    return [(await sectionByID(ctx.db, p.sectionID))!];
  },
});
